import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { defaultMigrationsDir, migrationsPending } from '../db/open.js';
import { createBlobStore } from '../blobs/store.js';
import { createFileSecretBox, type SecretBox } from '../secrets.js';
import { ArchiveError, extractEntry, fsyncDir, readEntry, type ArchiveEntry } from './archive.js';
import { integrityCheck, readJournal, withoutSyncCapture } from './inspect.js';
import { DB_PART, SECRETS_PART, blobOfPart, openVerifiedArchive, type Manifest } from './manifest.js';
import { checkPassphrase, sealedSecretsSchema, type SealedSecrets } from './passphrase.js';
import { resealSecrets } from './secrets-part.js';

export class RestoreError extends Error {}

export interface RestoreOptions {
  from: string;
  dataDir: string;
  passphrase?: string | null;
  dryRun?: boolean;
  /** The restoring machine's key (default: the data folder's key file, made if absent). */
  secrets?: SecretBox;
}

export interface RestoreReport {
  dryRun: boolean;
  createdAt: string;
  appVersion: string;
  entities: Manifest['entities'];
  tables: Record<string, number>;
  files: { count: number; bytes: number };
  secrets: { inBackup: boolean; restored: number; missing: string[]; note?: string };
}

/** Archive checks shared by restore and import: version, schema and passphrase, before any write. */
export async function openArchiveForRestore(file: string, passphrase: string | null | undefined): Promise<{ manifest: Manifest; entries: Map<string, ArchiveEntry>; sealed: SealedSecrets | null; privateKey: Uint8Array | null }> {
  const { manifest, entries } = await openVerifiedArchive(file);
  const journal = readJournal();
  const newest = Math.max(...journal.entries.map((e) => e.when));
  if (manifest.migration.when > newest || !journal.entries.some((e) => e.when === manifest.migration.when)) {
    throw new ArchiveError(`This backup was written by a newer Bureau (${manifest.appVersion}, schema ${manifest.migration.tag ?? manifest.migration.when}): update Bureau to restore it`);
  }
  const secretsEntry = entries.get(SECRETS_PART);
  let sealed: SealedSecrets | null = null;
  let privateKey: Uint8Array | null = null;
  if (secretsEntry) {
    const parsed = sealedSecretsSchema.safeParse(parseJson((await readEntry(file, secretsEntry)).toString('utf8')));
    if (!parsed.success) throw new ArchiveError('The backup is damaged: its secrets part is malformed');
    sealed = parsed.data;
    if (passphrase) {
      privateKey = await checkPassphrase(passphrase, sealed.kdf, sealed.publicKey);
      if (!privateKey) throw new RestoreError('Wrong recovery passphrase: it does not open the secrets of this backup (nothing was restored)');
    }
  }
  return { manifest, entries, sealed, privateKey };
}

/**
 * Opens the restored database and applies this version's pending migrations, as the server's
 * start would, but with capture functions that accept the triggers' arguments (a migration that
 * updates a synced table fires them).
 */
function migrateRestored(file: string): Database.Database {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  withoutSyncCapture(sqlite);
  sqlite.function('unicode_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  if (migrationsPending(sqlite, defaultMigrationsDir)) migrate(drizzle(sqlite), { migrationsFolder: defaultMigrationsDir });
  return sqlite;
}

/** JSON of a part whose hash matched: malformed only if made so on purpose (then re-hashed). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ArchiveError('The archive is damaged: a part is not valid JSON');
  }
}

/**
 * A data folder a restore may write into: absent, empty, or a fresh install (a database with no
 * account and no business yet, and no files).
 */
export function assertRestorableTarget(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const dbFile = path.join(dataDir, 'bureau.db');
  if (fs.existsSync(dbFile)) {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const has = (table: string) => !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) && !!db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get();
      if (has('users') || has('entities')) throw new RestoreError(`The data folder ${dataDir} already holds accounts or businesses: restore into an empty folder or a fresh install`);
    } finally {
      db.close();
    }
  }
  const blobs = path.join(dataDir, 'blobs');
  if (fs.existsSync(blobs) && fs.readdirSync(blobs).length > 0) throw new RestoreError(`The data folder ${dataDir} already holds files: restore into an empty folder or a fresh install`);
}

function reportOf(manifest: Manifest, dryRun: boolean, restoredSecrets: number, willRestoreSecrets: boolean, sealedPresent: boolean): RestoreReport {
  const note = !sealedPresent
    ? manifest.secrets.reason ?? 'This backup holds no secrets'
    : willRestoreSecrets
      ? undefined
      : 'No passphrase given: secrets (keys, passwords, tokens) are not restored; give the recovery passphrase to restore them';
  return {
    dryRun,
    createdAt: manifest.createdAt,
    appVersion: manifest.appVersion,
    entities: manifest.entities,
    tables: manifest.tables,
    files: manifest.files,
    secrets: { inBackup: sealedPresent, restored: restoredSecrets, missing: willRestoreSecrets ? [] : manifest.secrets.columns, ...(note ? { note } : {}) },
  };
}

/** A restore assembled beside its target: the database and files, ready to be moved into place. */
export interface StagedRestore {
  dir: string;
  db: string;
  blobs: string[];
  blobPath(sha256: string): string;
  restoredSecrets: number;
}

/**
 * Assembles a verified archive's database and files in `staging` (a new folder on the target's
 * disk): secrets re-sealed with `box` (the restoring machine's), the schema brought up to this
 * version's, the integrity checked. Nothing outside `staging` is written.
 */
export async function stageRestore(opened: Awaited<ReturnType<typeof openArchiveForRestore>>, from: string, staging: string, box: () => SecretBox): Promise<StagedRestore> {
  const { entries, sealed, privateKey } = opened;
  fs.mkdirSync(staging, { mode: 0o700 });
  const stagedDb = path.join(staging, 'bureau.db');
  await extractEntry(from, entries.get(DB_PART)!, stagedDb);
  const staged = createBlobStore(path.join(staging, 'blobs'));
  const blobs: string[] = [];
  for (const [name, entry] of entries) {
    const sha = blobOfPart(name);
    if (!sha) continue;
    fs.mkdirSync(path.dirname(staged.pathOf(sha)), { recursive: true });
    await extractEntry(from, entry, staged.pathOf(sha));
    blobs.push(sha);
  }
  let restoredSecrets = 0;
  if (sealed && privateKey) {
    const db = new Database(stagedDb);
    withoutSyncCapture(db);
    try {
      restoredSecrets = resealSecrets(db, sealed, privateKey, box());
    } finally {
      db.close();
    }
  }
  // An older backup's schema is brought up to this version's now, not at the next start.
  const sqlite = migrateRestored(stagedDb);
  try {
    const problem = integrityCheck(sqlite);
    if (problem !== 'ok') throw new RestoreError(`The restored database failed its integrity check: ${problem}`);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
  }
  for (const s of ['-wal', '-shm']) fs.rmSync(stagedDb + s, { force: true });
  return { dir: staging, db: stagedDb, blobs, blobPath: (sha) => staged.pathOf(sha), restoredSecrets };
}

export function restoreReport(manifest: Manifest, opts: { dryRun: boolean; restoredSecrets: number; passphraseChecked: boolean; secretsInArchive: boolean }): RestoreReport {
  return reportOf(manifest, opts.dryRun, opts.restoredSecrets, opts.passphraseChecked, opts.secretsInArchive);
}

/**
 * Restores a whole-install backup into `dataDir`. Everything is checked first (every hash, the
 * version, the passphrase, the target); then the database and files are assembled in a staging
 * folder inside the data folder (stageRestore), and the database moved into place last (the step
 * that makes the restore count).
 */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreReport> {
  const opened = await openArchiveForRestore(opts.from, opts.passphrase);
  const { manifest, sealed, privateKey } = opened;
  if (manifest.kind !== 'install') throw new RestoreError('This archive is an export of one business: import it from Settings → Backups instead');
  assertRestorableTarget(opts.dataDir);
  // The desktop's key lives in the OS keychain (secret.key.sealed), which this process cannot use:
  // secrets re-sealed with a key file here would not open in the app.
  if (privateKey && !opts.secrets && fs.existsSync(path.join(opts.dataDir, 'secret.key.sealed'))) {
    throw new RestoreError("This data folder's key is held by the desktop app's keychain, which the restore command cannot use: restore without --passphrase-file (everything but the secrets), or from the app's set-up screen (Restore from a backup)");
  }
  if (opts.dryRun) return reportOf(manifest, true, 0, !!privateKey, !!sealed);

  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const staging = path.join(opts.dataDir, `.restore-${crypto.randomBytes(4).toString('hex')}`);
  try {
    const staged = await stageRestore(opened, opts.from, staging, () => opts.secrets ?? createFileSecretBox(opts.dataDir));
    const target = createBlobStore(path.join(opts.dataDir, 'blobs'));
    for (const sha of staged.blobs) {
      fs.mkdirSync(path.dirname(target.pathOf(sha)), { recursive: true });
      fs.renameSync(staged.blobPath(sha), target.pathOf(sha));
    }
    const liveDb = path.join(opts.dataDir, 'bureau.db');
    for (const s of ['-wal', '-shm', '-journal']) fs.rmSync(liveDb + s, { force: true });
    fs.renameSync(staged.db, liveDb);
    fsyncDir(opts.dataDir);
    return reportOf(manifest, false, staged.restoredSecrets, !!privateKey, !!sealed);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
