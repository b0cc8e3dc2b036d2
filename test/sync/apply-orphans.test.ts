// The applier drops a row whose parent is not here (deleted elsewhere while the row was written),
// as the parent's cascade would, and looks only at the rows the page wrote: checking the whole
// table per page held the event loop in proportion to the table (a million messages) on every
// pulled page and every page of a re-snapshot.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApplier } from '../../server/sync/apply.js';
import type { SyncedTable } from '../../server/kernel/sync-policy.js';
import type { LoggedChange } from '../../server/sync/protocol.js';

const ENTITY = 'e1';
const table = (name: string, columns: string[]): SyncedTable => ({ name, kind: 'mutable', columns, primaryKey: ['id'], guards: [], deviceOnly: {}, blobs: [], hostedOnly: false });
const tables = [table('parents', ['id', 'entity_id', 'name']), table('children', ['id', 'entity_id', 'parent_id', 'name'])];

let sqlite: Database.Database;
let seq = 0;
const change = (tableName: string, rowId: string, columns: Record<string, unknown>): LoggedChange =>
  ({ id: `c${++seq}`, seq, deviceId: 'd1', table: tableName, rowId, op: 'upsert', hlc: `2026-01-01T00:00:00.000Z-${String(seq).padStart(4, '0')}-n1`, columns, schemaVersion: 1 }) as LoggedChange;

/** One page, as a pull applies it: one transaction, foreign keys checked at its commit. */
function applyPage(changes: LoggedChange[]) {
  const applier = createApplier(sqlite, tables);
  return sqlite.transaction(() => {
    sqlite.pragma('defer_foreign_keys = ON');
    return applier.apply(ENTITY, changes);
  })();
}

beforeEach(() => {
  sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  sqlite.exec(`CREATE TABLE sync_stamps (table_name TEXT NOT NULL, row_id TEXT NOT NULL, "column" TEXT NOT NULL, hlc TEXT NOT NULL, PRIMARY KEY (table_name, row_id, "column"));
    CREATE TABLE parents (id TEXT PRIMARY KEY, entity_id TEXT NOT NULL, name TEXT);
    CREATE TABLE children (id TEXT PRIMARY KEY, entity_id TEXT NOT NULL, parent_id TEXT REFERENCES parents(id) ON DELETE CASCADE, name TEXT);`);
});

afterEach(() => sqlite.close());

describe('the applier and rows whose parent is gone', () => {
  it('drops a row the page wrote whose parent is not here, and keeps the others', () => {
    const outcome = applyPage([
      change('parents', 'p1', { id: 'p1', entity_id: ENTITY, name: 'Kept' }),
      change('children', 'c1', { id: 'c1', entity_id: ENTITY, parent_id: 'p1', name: 'Has a parent' }),
      change('children', 'c2', { id: 'c2', entity_id: ENTITY, parent_id: 'gone', name: 'Parent deleted elsewhere' }),
    ]);
    expect(outcome.skipped).toEqual([{ id: expect.any(String), reason: 'children c2: its parent row was deleted' }]);
    expect(sqlite.prepare('SELECT id FROM children ORDER BY id').all()).toEqual([{ id: 'c1' }]);
  });

  it("looks at the page's rows only, not at every row of the table", () => {
    applyPage([change('parents', 'p1', { id: 'p1', entity_id: ENTITY, name: 'Kept' })]);
    // A row no page wrote, left without its parent (written while foreign keys were off): the
    // page's check does not scan for it. Before, every page touching the table checked all of it.
    sqlite.pragma('foreign_keys = OFF');
    sqlite.prepare('INSERT INTO children (id, entity_id, parent_id, name) VALUES (?, ?, ?, ?)').run('old', ENTITY, 'never-here', 'Untouched');
    sqlite.pragma('foreign_keys = ON');
    const outcome = applyPage([change('children', 'c1', { id: 'c1', entity_id: ENTITY, parent_id: 'p1', name: 'New' })]);
    expect(outcome.skipped).toEqual([]);
    expect(sqlite.prepare('SELECT id FROM children ORDER BY id').all()).toEqual([{ id: 'c1' }, { id: 'old' }]);
  });
});
