import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { getEntity } from '../auth/index.js';
import { signingCertificates } from './tables.js';

const VALID_YEARS = 10;

/**
 * The entity's self-signed document-sealing certificate, created on first use. The private key
 * is sealed with ctx.secrets (the OS keychain on the desktop) and opened only to sign.
 */
export async function getSigningCertificate(ctx: Context, entityId: string): Promise<{ certPem: string; keyPem: string; fingerprint: string }> {
  let row = ctx.db.select().from(signingCertificates).where(eq(signingCertificates.entityId, entityId)).get();
  if (!row) {
    // node-forge loads with the first certificate, not at start.
    const { default: forgeLib } = await import('node-forge');
    const created = createCertificate(ctx, entityId, forgeLib);
    ctx.db.insert(signingCertificates).values(created).onConflictDoNothing().run();
    row = ctx.db.select().from(signingCertificates).where(eq(signingCertificates.entityId, entityId)).get()!;
  }
  return { certPem: row.certPem, keyPem: ctx.secrets.open(row.keySealed).toString('utf8'), fingerprint: row.fingerprint };
}

function createCertificate(ctx: Context, entityId: string, forge: typeof import('node-forge')) {
  const entityName = getEntity(ctx, entityId).name;
  // node-forge uses Node's native RSA key generation when available.
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${crypto.randomBytes(15).toString('hex')}`;
  const now = ctx.clock.now();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + VALID_YEARS * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: `${entityName} document seal`.slice(0, 64) },
    { name: 'organizationName', value: entityName.slice(0, 64) },
    { name: 'organizationalUnitName', value: 'Bureau e-signature' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return {
    entityId,
    certPem,
    keySealed: ctx.secrets.seal(forge.pki.privateKeyToPem(keys.privateKey)),
    fingerprint: crypto.createHash('sha256').update(der).digest('hex'),
    createdAt: now.toISOString(),
    expiresAt: cert.validity.notAfter.toISOString(),
  };
}
