import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BlobStore } from '../blobs/store.js';
import type { SecretBox } from '../secrets.js';
import { withFileReader, type FileReader } from '../db/read-pool.js';
import { VERSION } from '../version.js';
import { extractEntry, sha256File, writeArchive, type PartSource } from './archive.js';
import { heldBlobs } from './held-blobs.js';
import { blobSteps, blobsOf, countSteps, countsOf, migrationOf, migrationStep, schemaStep, sealedOf, sealedSteps, summariesOf, summarySteps, tablesOf } from './inspect.js';
import { DB_PART, FORMAT, FORMAT_VERSION, SECRETS_PART, blobPartName, openVerifiedArchive, type Manifest } from './manifest.js';
import { sealSecrets, type PassphraseLock } from './secrets-part.js';

/** What a backup reads: the live database connection, the blob store and this machine's key. */
export interface BackupSource {
  sqlite: Database.Database;
  blobs: BlobStore;
  /** Null where the machine key cannot be opened (then secrets are left out). */
  secrets: SecretBox | null;
  /**
   * Whether the app writes through this same connection (the server's own backups). Its writes
   * then update the copy as it goes, so it proceeds in small steps between requests. Another
   * process's writes would restart a stepwise copy, so a separate connection (the CLI, beside a
   * running app) copies in one step, within one read transaction (WAL: writers go on meanwhile).
   */
  sharedConnection: boolean;
}

export interface BackupOptions {
  /** The archive's final path; its folder must exist. */
  file: string;
  lock: PassphraseLock | null;
  now: Date;
  /** Called synchronously at the moment the database copy is complete (tests record the source then). */
  onCopied?: () => void;
}

export interface BackupResult {
  file: string;
  size: number;
  manifest: Manifest;
  verified: true;
}

export class BackupError extends Error {}

/** Temporary files of a backup under way carry this mark; left by a crash, the next backup removes them. */
export const TEMP_MARK = '.bureau-tmp-';

/**
 * Temporary files name their process; those of a process that is gone are removed. Removal is
 * asynchronous here and below: unlinking a database copy of gigabytes held the thread ~0.3 s per GB.
 */
export async function removeStaleTemps(folder: string): Promise<void> {
  if (!fs.existsSync(folder)) return;
  for (const name of fs.readdirSync(folder)) {
    const pid = name.startsWith(TEMP_MARK) ? Number(name.slice(TEMP_MARK.length).split('-')[0]) : name.endsWith('.bureau-partial') ? Number(name.split('.').at(-3)) : NaN;
    if (Number.isInteger(pid) && !processAlive(pid)) await fs.promises.rm(path.join(folder, name), { force: true, recursive: true });
  }
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false; // this process runs one backup at a time: its leftovers are stale
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Cleanup must not hide the error that brought it (a folder that is not one, or gone). */
async function removeQuietly(file: string): Promise<void> {
  try {
    await fs.promises.rm(file, { force: true });
  } catch {
    // nothing was written there
  }
}

/** The folder's trouble in words: from Node's fs (errno codes) or SQLite's own writes (SQLITE_*). */
export function describeFsError(err: unknown, folder: string): Error {
  const code = String((err as { code?: unknown }).code ?? '');
  if (['ENOSPC', 'EDQUOT', 'SQLITE_FULL'].includes(code)) return new BackupError(`The backup folder is full: ${folder}`);
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM'].includes(code)) return new BackupError(`The backup folder is not writable: ${folder}`);
  if (code === 'ENOENT') return new BackupError(`The backup folder does not exist: ${folder}`);
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return new BackupError(`The backup folder could not be written (${code}): ${folder}`);
  return err instanceof Error ? err : new Error(String(err));
}

/** Pages per step of the online copy on the API's connection (better-sqlite3's default). */
const COPY_STEP_PAGES = 100;
/** Steps between flushes of the copy (about 100 MB with 4 KiB pages). */
const FLUSH_EVERY_STEPS = 256;

/**
 * The database copied a step at a time between other requests. Its last step commits the copy
 * with an fsync, which wrote out the whole file at once (0.6 s on the API's thread for 2 GB); the
 * copy is flushed in the background as it grows instead, so that last fsync has little left.
 * Resolves with the last flush still under way (an async function's result would wait for it).
 */
async function copyInSteps(sqlite: Database.Database, dest: string): Promise<{ flushed: Promise<void> }> {
  let steps = 0;
  let flushing: Promise<void> | null = null;
  const flush = async () => {
    const file = await fs.promises.open(dest, 'r+');
    try {
      await file.datasync();
    } finally {
      await file.close();
    }
  };
  await sqlite.backup(dest, {
    progress: () => {
      steps += 1;
      // A failed flush is not the backup's failure: the copy is a temporary file, read into the archive, which is fsynced.
      if (steps % FLUSH_EVERY_STEPS === 0 && !flushing) flushing = flush().then(() => undefined, () => undefined).finally(() => (flushing = null));
      return COPY_STEP_PAGES;
    },
  });
  return { flushed: flushing ?? Promise.resolve() };
}

/**
 * One backup of the install: the database copied with SQLite's online backup API (consistent
 * while the app writes), the files it references and, with a passphrase, its secrets; written
 * to a temporary name, fsynced and renamed, then read back in full and its database checked.
 * Nothing under the data folder is written; a crash leaves only temporary files in the folder.
 */
export async function writeBackup(source: BackupSource, opts: BackupOptions): Promise<BackupResult> {
  const folder = path.dirname(opts.file);
  const tag = crypto.randomBytes(4).toString('hex');
  const dbCopy = path.join(folder, `${TEMP_MARK}${process.pid}-${tag}.db`);
  const checkCopy = path.join(folder, `${TEMP_MARK}${process.pid}-${tag}-check.db`);
  try {
    try {
      fs.mkdirSync(folder, { recursive: true });
      fs.accessSync(folder, fs.constants.W_OK);
    } catch (err) {
      throw describeFsError(err, folder);
    }
    await removeStaleTemps(folder);
    let flushed: Promise<void> = Promise.resolve();
    try {
      if (source.sharedConnection) ({ flushed } = await copyInSteps(source.sqlite, dbCopy));
      else await source.sqlite.backup(dbCopy, { progress: () => 0x7fffffff });
    } catch (err) {
      throw describeFsError(err, folder);
    }
    // Nothing has run since the copy's last page (its promise resolves in that step's turn).
    opts.onCopied?.();
    await flushed;
    // The server's backups read the copy in a worker of their own: requests, and the API's long
    // reads in its read worker, go on meanwhile. The CLI (no requests to serve) reads it here.
    const reading = source.sharedConnection ? { sqlite: source.sqlite } : null;
    let described: Awaited<ReturnType<typeof describeCopy>>;
    try {
      singleFile(dbCopy);
      described = await withFileReader(reading, dbCopy, async (copy) => {
        const problem = await copy.integrity();
        if (problem !== 'ok') throw new BackupError(`The database copy failed its integrity check: ${problem}`);
        return describeCopy(copy, source, opts);
      });
    } catch (err) {
      throw describeFsError(err, folder);
    }
    const parts: PartSource[] = [{ name: DB_PART, ...(await sha256File(dbCopy)), file: dbCopy }, ...described.parts];
    const manifest: Manifest = { ...described.manifest, parts: parts.map(({ name, size, sha256 }) => ({ name, size, sha256 })) };
    let size: number;
    try {
      size = await writeArchive(opts.file, manifest, parts);
    } catch (err) {
      throw describeFsError(err, folder);
    }
    try {
      await verifyBackupFile(opts.file, checkCopy, (file) => withFileReader(reading, file, (copy) => copy.integrity()));
    } catch (err) {
      // An archive that did not check out never stays under a backup's name.
      await removeQuietly(opts.file);
      throw describeFsError(err, folder);
    }
    return { file: opts.file, size, manifest, verified: true };
  } finally {
    await Promise.all([dbCopy, checkCopy].flatMap((f) => ['', '-wal', '-shm', '-journal'].map((s) => removeQuietly(f + s))));
  }
}

/** One file, no WAL beside it: the archive holds the database as a single part. */
function singleFile(dbCopy: string): void {
  const copy = new Database(dbCopy);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * What the copy holds (its integrity already checked), read by `copy` in two batches (its
 * schema, then every table's counts, the files its rows reference and its sealed secrets): the
 * files that go in the archive, the secrets part, the manifest's counts.
 */
async function describeCopy(copy: FileReader, source: BackupSource, opts: BackupOptions): Promise<{ manifest: Omit<Manifest, 'parts'>; parts: PartSource[] }> {
  const [schema, migration] = await copy.batch({ steps: [schemaStep, migrationStep] });
  const tables = tablesOf(schema);
  const names = tables.map((t) => t.name);
  const summaries = summarySteps(tables);
  const blobs = blobSteps(tables);
  const sealed = sealedSteps(tables);
  const results = await copy.batch({ steps: [...countSteps(names), ...summaries, ...blobs, ...sealed.steps] });
  let at = 0;
  const next = (n: number) => results.slice(at, (at += n));
  const counts = countsOf(names, next(names.length));
  const entities = summariesOf(tables, next(summaries.length));
  // Referenced but never fetched (sync): nothing to keep.
  const files = await heldBlobs(source.blobs, blobsOf(next(blobs.length)));
  const secrets = await sealSecrets(sealedOf(sealed.tables, next(sealed.steps.length)), source.secrets, opts.lock);
  const parts: PartSource[] = files.map((f) => ({ name: blobPartName(f.sha256), size: f.size, sha256: f.sha256, file: f.file }));
  if (secrets.sealed) {
    const data = Buffer.from(JSON.stringify(secrets.sealed));
    parts.push({ name: SECRETS_PART, size: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex'), data });
  }
  const manifest: Omit<Manifest, 'parts'> = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    kind: 'install',
    appVersion: VERSION,
    createdAt: opts.now.toISOString(),
    migration: migrationOf(migration),
    entities,
    tables: counts,
    files: { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) },
    secrets: { included: secrets.sealed !== null, count: secrets.count, columns: secrets.columns, ...(secrets.reason ? { reason: secrets.reason } : {}) },
  };
  return { manifest, parts };
}

/**
 * Re-reads an archive: every part's hash, then its database's integrity check (by `check`: on the
 * server, a worker of its own, so that requests and the API's reads go on meanwhile).
 */
export async function verifyBackupFile(file: string, scratch: string, check: (file: string) => Promise<string> = (f) => withFileReader(null, f, (copy) => copy.integrity())): Promise<Manifest> {
  const { manifest, entries } = await openVerifiedArchive(file);
  const dbEntry = entries.get(DB_PART);
  if (!dbEntry) throw new BackupError('The backup has no database');
  await extractEntry(file, dbEntry, scratch);
  const problem = await check(scratch);
  if (problem !== 'ok') throw new BackupError(`The database in the backup failed its integrity check: ${problem}`);
  return manifest;
}
