import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError } from '../http/errors.js';
import { backupSettings } from './tables.js';
import { checkPassphrase, derivePrivateKey, kdfSchema, MIN_PASSPHRASE_LENGTH, newKdf, publicKeyOf } from './passphrase.js';
import type { PassphraseLock } from './secrets-part.js';

/**
 * Beside the data folder (a disk that dies takes both otherwise), named after it so two installs
 * side by side (profiles, tests) never share one.
 */
export function defaultBackupFolder(dataDir: string): string {
  const abs = path.resolve(dataDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}-backups`);
}

export type BackupSettingsRow = typeof backupSettings.$inferSelect;

export function readSettingsRow(ctx: Context): BackupSettingsRow {
  const row = ctx.db.select().from(backupSettings).where(eq(backupSettings.id, 1)).get();
  return row ?? { id: 1, folder: null, enabled: true, intervalHours: 24, keepDaily: 7, keepWeekly: 4, passphraseKdf: null, passphrasePublicKey: null, passphraseSetAt: null, updatedAt: nowIso(ctx) };
}

export function backupFolder(ctx: Context, row = readSettingsRow(ctx)): string {
  return row.folder ?? defaultBackupFolder(ctx.config.dataDir);
}

export function passphraseLock(row: BackupSettingsRow): PassphraseLock | null {
  if (!row.passphraseKdf || !row.passphrasePublicKey) return null;
  return { kdf: kdfSchema.parse(JSON.parse(row.passphraseKdf)), publicKey: row.passphrasePublicKey };
}

function saveRow(ctx: Context, row: BackupSettingsRow): void {
  const values = { ...row, id: 1, updatedAt: nowIso(ctx) };
  ctx.db.insert(backupSettings).values(values).onConflictDoUpdate({ target: backupSettings.id, set: values }).run();
}

export interface UpdateBackupSettings {
  folder?: string | null;
  enabled?: boolean;
  intervalHours?: number;
}

/** A folder inside the data folder would be lost with it: refused. */
export function updateBackupSettings(ctx: Context, input: UpdateBackupSettings): BackupSettingsRow {
  const row = readSettingsRow(ctx);
  if (input.folder !== undefined && input.folder !== null) {
    if (!path.isAbsolute(input.folder)) throw new BadRequestError('The backup folder must be an absolute path');
    const rel = path.relative(path.resolve(ctx.config.dataDir), path.resolve(input.folder));
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) throw new BadRequestError('The backup folder must not be inside the data folder: a lost disk or folder would take the backups with it');
  }
  const next = { ...row, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as BackupSettingsRow;
  saveRow(ctx, next);
  return readSettingsRow(ctx);
}

/**
 * Sets (or, given the current one, changes) the recovery passphrase. Only its scrypt parameters
 * and public key are kept; backups written before a change still open with the old passphrase.
 */
export async function setRecoveryPassphrase(ctx: Context, input: { passphrase: string; currentPassphrase?: string; kdfCost?: number }): Promise<BackupSettingsRow> {
  if (input.passphrase.length < MIN_PASSPHRASE_LENGTH) throw new BadRequestError(`The recovery passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`);
  const row = readSettingsRow(ctx);
  const lock = passphraseLock(row);
  if (lock) {
    if (!input.currentPassphrase) throw new BadRequestError('A recovery passphrase is already set: give the current one to change it');
    if (!(await checkPassphrase(input.currentPassphrase, lock.kdf, lock.publicKey))) throw new BadRequestError('The current recovery passphrase is wrong');
  }
  const kdf = newKdf(input.kdfCost);
  const publicKey = publicKeyOf(await derivePrivateKey(input.passphrase, kdf));
  // Read again: the derivation awaited, and another change may have landed meanwhile.
  saveRow(ctx, { ...readSettingsRow(ctx), passphraseKdf: JSON.stringify(kdf), passphrasePublicKey: publicKey, passphraseSetAt: nowIso(ctx) });
  return readSettingsRow(ctx);
}
