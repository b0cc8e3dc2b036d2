import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';
import { registerCaptureFallbacks } from '../sync/fallbacks.js';

export type Db = BetterSQLite3Database<typeof schema>;

export const defaultMigrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens (creating if needed) the SQLite database and brings its schema up to date. */
export function openDatabase(file: string, migrationsDir = defaultMigrationsDir): { sqlite: Database.Database; db: Db } {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Case-insensitive matching beyond ASCII (SQLite's own lower() folds A–Z only).
  sqlite.function('unicode_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  registerCaptureFallbacks(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsDir });
  return { sqlite, db };
}
