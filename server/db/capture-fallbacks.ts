import type Database from 'better-sqlite3';

/**
 * The functions capture triggers call, in their "not capturing" form: any connection that opens
 * the database (tools, tests, a server before the sync module starts) can write to synced tables.
 */
export function registerCaptureFallbacks(sqlite: Database.Database): void {
  // varargs: the triggers call them with arguments (`sync_capturing(NEW.entity_id)`); a function
  // registered from a zero-parameter arrow takes none, and a write would fail "wrong number of arguments".
  sqlite.function('sync_capturing', { varargs: true }, () => 0);
  sqlite.function('sync_undoing_refused', { varargs: true }, () => 0);
  for (const name of ['sync_stamp', 'sync_change_id', 'sync_diff', 'sync_group']) sqlite.function(name, { varargs: true }, () => null);
}
