// Checks a sealed PDF as a PDF reader does: the byte range covers the whole file but the
// signature, the CMS messageDigest is that range's SHA-256, and the certificate's key signed it.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import forge from 'node-forge';

/** Splits a signed PDF into the signed bytes and the PKCS#7 blob, as a PDF reader does. */
export function extractSignature(pdf: Buffer) {
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(pdf.toString('latin1'));
  if (!m) throw new Error('no ByteRange');
  const [a, b, c, d] = m.slice(1).map(Number);
  expect(a).toBe(0);
  expect(c + d).toBe(pdf.length);
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1').replace(/(00)+$/, '');
  return { signed, der: Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex') };
}

/** Checks the CMS signature: the messageDigest covers the byte range, and the certificate's key signed the attributes. */
export function verifyCms(signed: Buffer, der: Buffer) {
  const p7 = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')))) as forge.pkcs7.PkcsSignedData & { rawCapture: { authenticatedAttributes: forge.asn1.Asn1[]; signature: string } };
  const cert = p7.certificates[0];
  const attrs = p7.rawCapture.authenticatedAttributes;
  const digestAttr = attrs.find((attr) => forge.asn1.derToOid((attr.value as forge.asn1.Asn1[])[0].value as string) === forge.pki.oids.messageDigest)!;
  const digest = Buffer.from(((digestAttr.value as forge.asn1.Asn1[])[1].value as forge.asn1.Asn1[])[0].value as string, 'binary');
  const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attrs);
  const attrDer = Buffer.from(forge.asn1.toDer(set).getBytes(), 'binary');
  const publicKey = crypto.createPublicKey(forge.pki.publicKeyToPem(cert.publicKey));
  return {
    digestMatches: digest.equals(crypto.createHash('sha256').update(signed).digest()),
    signatureValid: crypto.verify('sha256', attrDer, publicKey, Buffer.from(p7.rawCapture.signature, 'binary')),
    cert,
  };
}

