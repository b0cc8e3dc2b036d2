import { z } from 'zod';
import type Database from 'better-sqlite3';
import type { SecretBox } from '../secrets.js';
import { updateSealed, type SealedValue } from './inspect.js';
import { slices } from './slices.js';
import { decryptSecrets, encryptSecrets, type Kdf, type SealedSecrets } from './passphrase.js';

/** The passphrase's public half, as the install keeps it. */
export interface PassphraseLock {
  kdf: Kdf;
  publicKey: string;
}

const secretsPayload = z.object({
  values: z.array(z.object({ table: z.string(), key: z.record(z.string(), z.unknown()), column: z.string(), value: z.string() })),
});
type SecretsPayload = z.infer<typeof secretsPayload>;

export interface CollectedSecrets {
  columns: string[];
  sealed: SealedSecrets | null;
  count: number;
  reason?: string;
}

/**
 * Opens the machine-sealed values `found` (read from a backup's copy or an export's snapshot)
 * with this machine's box and encrypts them together to the passphrase's public key; without a
 * passphrase (or a box), none. Opened a slice at a time between other requests (`pace`): a
 * business's secrets grow with its data (a signing token per signer).
 */
export async function sealSecrets(found: SealedValue[], box: SecretBox | null, lock: PassphraseLock | null, pace: () => Promise<void> = slices()): Promise<CollectedSecrets> {
  const columns = [...new Set(found.map((v) => `${v.table}.${v.column}`))].sort();
  if (!lock) return { columns, sealed: null, count: 0, reason: 'No recovery passphrase is set: secrets (keys, passwords, tokens) are not in this backup' };
  if (!box) return { columns, sealed: null, count: 0, reason: "This machine's key is not available here: secrets are not in this backup" };
  const payload: SecretsPayload = { values: [] };
  let unreadable = 0;
  for (const v of found) {
    try {
      payload.values.push({ table: v.table, key: v.key, column: v.column, value: box.open(v.sealed).toString('base64') });
    } catch {
      unreadable++; // sealed by another machine's key (restored without passphrase): nothing to carry
    }
    await pace();
  }
  const sealed = encryptSecrets(Buffer.from(JSON.stringify(payload)), lock.kdf, lock.publicKey);
  return { columns, sealed, count: payload.values.length, reason: unreadable ? `${unreadable} secret(s) could not be opened on this machine and are not included` : undefined };
}

export type SecretValue = SecretsPayload['values'][number];

/** The archive's secrets in clear; throws if the envelope does not decrypt (altered). */
export function openSecrets(sealed: SealedSecrets, privateKey: Uint8Array): SecretValue[] {
  try {
    return secretsPayload.parse(JSON.parse(Buffer.from(decryptSecrets(sealed, privateKey)).toString('utf8'))).values;
  } catch {
    throw new Error('The secrets in this backup cannot be decrypted with this passphrase');
  }
}

/** Seals each value with `box` (this machine's) into its row; call inside a transaction. */
export function applySecrets(db: Database.Database, values: SecretValue[], box: SecretBox): number {
  let written = 0;
  for (const v of values) written += updateSealed(db, v.table, v.key, v.column, box.seal(Buffer.from(v.value, 'base64')));
  return written;
}

/** Re-seals the archive's secrets with `box` (the restoring machine's) into `db`. */
export function resealSecrets(db: Database.Database, sealed: SealedSecrets, privateKey: Uint8Array, box: SecretBox): number {
  const values = openSecrets(sealed, privateKey);
  return db.transaction(() => applySecrets(db, values, box))();
}
