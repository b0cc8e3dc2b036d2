import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { registerCaptureFallbacks } from './capture-fallbacks.js';

export type Db = BetterSQLite3Database;

export const defaultMigrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens (creating if needed) the SQLite database and brings its schema up to date. */
export function openDatabase(file: string, migrationsDir = defaultMigrationsDir): { sqlite: Database.Database; db: Db } {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Savepoints (one per event in a ledger group commit) keep their undo pages in a statement
  // journal that SQLite spills to a temp file past 64 KiB: in memory it halved the cost of a
  // posted event's statements (measured, test/bench/ledger).
  sqlite.pragma('temp_store = MEMORY');
  // Case-insensitive matching beyond ASCII (SQLite's own lower() folds A–Z only).
  sqlite.function('unicode_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  registerCaptureFallbacks(sqlite);
  const db = drizzle(sqlite);
  if (migrationsPending(sqlite, migrationsDir)) migrate(db, { migrationsFolder: migrationsDir });
  return { sqlite, db };
}

/**
 * Whether drizzle's `migrate` would apply anything: it applies every migration of the journal
 * newer (`when`) than the newest one recorded in the database. Answered from the journal and one
 * query, so that a start with nothing pending neither reads nor hashes every migration file.
 */
export function migrationsPending(sqlite: Database.Database, migrationsDir: string): boolean {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const applied = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get()
    ? (sqlite.prepare('SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1').get() as { created_at: number | string } | undefined)
    : undefined;
  return !applied || Number(applied.created_at) < newest;
}
