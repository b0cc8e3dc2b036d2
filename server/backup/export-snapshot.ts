import crypto from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { BatchStep } from '../db/read-pool.js';
import { slices } from './slices.js';

/**
 * What a business export reads from: a read-only connection of its own to the database file,
 * inside one read transaction, so every table is read at one moment (WAL: the server's writes go
 * on meanwhile) while the export yields to other requests between slices. An in-memory database
 * (tests) has no file to open: its own connection is read then, without yielding, which keeps
 * that one moment too.
 */
export interface ExportSnapshot {
  db: Database.Database;
  /** Lets other requests run when the current slice has taken its time (a no-op on a shared connection). */
  pace(): Promise<void>;
  /** A statement's rows: stepped through on the export's own connection, all at once on a shared one (its requests run between slices). */
  rows<T = unknown[]>(st: Database.Statement, params: unknown[]): Iterable<T>;
  close(): void;
}

export function openExportSnapshot(sqlite: Database.Database): ExportSnapshot {
  if (sqlite.memory) return { db: sqlite, pace: () => Promise.resolve(), rows: <T>(st: Database.Statement, params: unknown[]) => st.all(...params) as T[], close: () => {} };
  const db = new Database(sqlite.name, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // The server's own SQL function that queries may use (server/db/open.ts).
  db.function('unicode_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  db.exec('BEGIN');
  // A deferred transaction takes its snapshot at its first read: now, not at the first table.
  db.prepare('SELECT count(*) FROM sqlite_master').get();
  return {
    db,
    rows: <T>(st: Database.Statement, params: unknown[]) => st.iterate(...params) as Iterable<T>,
    pace: slices(),
    close() {
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    },
  };
}

/** The rows of each step, read from the snapshot a slice at a time (an export's secrets and file references). */
export async function readSteps(snap: ExportSnapshot, steps: BatchStep[]): Promise<unknown[][]> {
  const results: unknown[][] = [];
  for (const step of steps) {
    const rows: unknown[] = [];
    for (const r of snap.rows(snap.db.prepare(step.sql), step.params)) {
      rows.push(r);
      await snap.pace();
    }
    results.push(rows);
  }
  return results;
}

/**
 * A part of the archive written to a file as it is produced (a large entity's rows do not fit in
 * one string), hashed on the way; the archive then streams it like a stored file.
 */
export class PartFile {
  private readonly hash = crypto.createHash('sha256');
  private pending: string[] = [];
  private pendingChars = 0;
  private size = 0;
  private constructor(
    readonly file: string,
    private readonly fh: fs.promises.FileHandle,
  ) {}

  static async create(file: string): Promise<PartFile> {
    return new PartFile(file, await fs.promises.open(file, 'wx', 0o600));
  }

  /** Text is gathered and written about a megabyte at a time (one write per row would be slow). */
  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= 1 << 19) await this.flush();
  }

  /** Writes what is left and closes the file; its size and SHA-256. */
  async end(): Promise<{ file: string; size: number; sha256: string }> {
    try {
      await this.flush();
    } finally {
      await this.fh.close();
    }
    return { file: this.file, size: this.size, sha256: this.hash.digest('hex') };
  }

  /** Closes the file after a failure (the caller removes the folder). */
  async abandon(): Promise<void> {
    await this.fh.close().catch(() => {});
  }

  private async flush(): Promise<void> {
    if (!this.pendingChars) return;
    const chunk = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
    this.hash.update(chunk);
    await this.fh.write(chunk);
    this.size += chunk.length;
  }
}

/** Writes one part with `produce`, closing the file whatever happens. */
export async function writePartFile(file: string, produce: (out: PartFile) => Promise<void>): Promise<{ file: string; size: number; sha256: string }> {
  const out = await PartFile.create(file);
  try {
    await produce(out);
  } catch (err) {
    await out.abandon();
    throw err;
  }
  return out.end();
}
