import type Database from 'better-sqlite3';

/**
 * The functions capture triggers call, in their "not capturing" form: any connection that opens
 * the database (tools, tests, a server before the sync module starts) can write to synced tables.
 */
export function registerCaptureFallbacks(sqlite: Database.Database): void {
  sqlite.function('sync_capturing', () => 0);
  sqlite.function('sync_stamp', () => null);
  sqlite.function('sync_change_id', () => null);
  sqlite.function('sync_diff', () => null);
  sqlite.function('sync_group', () => null);
  sqlite.function('sync_undoing_refused', () => 0);
}
