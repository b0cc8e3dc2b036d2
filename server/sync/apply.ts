// Applying changes pulled from the hosted instance to local tables. Runs with capture off, so
// nothing is echoed back and no outbox event fires (webhooks, mail and notifications fire once,
// on the device where a change began). Only known columns of known synced tables are written,
// and only rows of the linked entity.
import type Database from 'better-sqlite3';
import type { LoggedChange } from './protocol.js';
import { DELETED, ROW_STAMP } from './capture.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { quoteIdent as q } from '../db/quote.js';

export interface ApplyOutcome {
  applied: number;
  skipped: { id: string; reason: string }[];
}

function keyOf(table: SyncedTable, rowId: string): unknown[] | null {
  if (table.primaryKey.length === 1) return [rowId];
  try {
    const parts = JSON.parse(rowId) as unknown;
    return Array.isArray(parts) && parts.length === table.primaryKey.length ? parts : null;
  } catch {
    return null;
  }
}

/** SQLite takes strings, numbers and null; anything else from the wire is stored as JSON text. */
function toSqlite(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}

export function createApplier(sqlite: Database.Database, tables: SyncedTable[]) {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const stampsOf = sqlite.prepare<[string, string], { column: string; hlc: string }>('SELECT "column", hlc FROM sync_stamps WHERE table_name = ? AND row_id = ?');
  // Statements are prepared once per shape: preparing on every change was a third of a new device's initial sync (profiled).
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = sqlite.prepare(text)));
    return statement;
  };
  const setStamp = sqlite.prepare('INSERT INTO sync_stamps (table_name, row_id, "column", hlc) VALUES (?, ?, ?, ?) ON CONFLICT (table_name, row_id, "column") DO UPDATE SET hlc = excluded.hlc');

  /** Applies one change from another device; returns why it was skipped, if it was. */
  function applyOne(entityId: string, change: LoggedChange): string | null {
    const table = byName.get(change.table);
    if (!table) return `table ${change.table} is not synced on this device`;
    const key = keyOf(table, change.rowId);
    if (!key) return 'malformed row id';
    const columns = Object.entries(change.columns).filter(([c]) => c === DELETED || table.columns.includes(c));
    if (columns.some(([c, v]) => c === 'entity_id' && v !== entityId)) return 'row of another entity';
    const where = `${table.primaryKey.map((c) => `${q(c)} = ?`).join(' AND ')} AND entity_id = ?`;
    const exists = prepared(`SELECT 1 FROM ${q(table.name)} WHERE ${where}`).get(...(key as never[]), entityId) !== undefined;
    const existsAnywhere = exists || prepared(`SELECT 1 FROM ${q(table.name)} WHERE ${table.primaryKey.map((c) => `${q(c)} = ?`).join(' AND ')}`).get(...(key as never[])) !== undefined;
    if (!exists && existsAnywhere) return 'row id belongs to another entity here';

    const stamps = new Map(stampsOf.all(change.table, change.rowId).map((r) => [r.column, r.hlc]));
    const local = { get: (c: string) => stamps.get(c) ?? (c === DELETED ? undefined : stamps.get(ROW_STAMP)), has: (c: string) => local.get(c) !== undefined };
    // A transition sets its columns whatever their stamps (its precondition held at the hosted
    // instance, in log order). A write is applied again when its own stamp is the local one (the
    // same write, echoed or replayed): an older transition in the log may have set the cell since.
    const wins = (column: string) => change.op === 'transition' || !local.has(column) || change.hlc >= local.get(column)!;
    const winners = change.op === 'fact' && exists ? [] : columns.filter(([c]) => wins(c));
    if (winners.length === 0) return null;

    if (winners.some(([c, v]) => c === DELETED && v)) {
      if (exists) prepared(`DELETE FROM ${q(table.name)} WHERE ${where}`).run(...(key as never[]), entityId);
    } else if (exists) {
      const set = winners.filter(([c]) => c !== DELETED && !table.primaryKey.includes(c) && c !== 'entity_id');
      try {
        if (set.length) prepared(`UPDATE ${q(table.name)} SET ${set.map(([c]) => `${q(c)} = ?`).join(', ')} WHERE ${where}`).run(...set.map(([, v]) => toSqlite(v)), ...(key as never[]), entityId);
      } catch (err) {
        // A unique index this row now collides with (a name another device took here): skipped like an
        // insert that cannot be made, or the page's transaction would fail on every retry.
        return `cannot update the row: ${(err as Error).message}`;
      }
    } else if (!local.get(DELETED) || change.hlc > local.get(DELETED)!) {
      // A row this device has not seen: it needs every required column, which its first change carries.
      const values = new Map<string, string | number | null>(Object.entries(table.deviceOnly));
      for (const [c, v] of columns) if (c !== DELETED) values.set(c, toSqlite(v));
      values.set('entity_id', entityId);
      table.primaryKey.forEach((c, i) => values.set(c, toSqlite(key[i])));
      const names = [...values.keys()];
      try {
        prepared(`INSERT INTO ${q(table.name)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...values.values());
      } catch (err) {
        return `cannot create the row: ${(err as Error).message}`;
      }
    }
    for (const [column] of winners) {
      const stamp = change.op === 'transition' && local.has(column) && local.get(column)! > change.hlc ? local.get(column)! : change.hlc;
      setStamp.run(change.table, change.rowId, column, stamp);
    }
    return null;
  }

  /**
   * Rows whose parent the log deleted (a folder deleted on one device while another shared it):
   * they go as ON DELETE CASCADE takes them wherever the parent's delete is applied after them.
   * Left in place, the deferred foreign-key check would fail this page's transaction on every
   * retry and the device would never sync again.
   */
  function dropOrphans(touched: Set<string>, changeOf: Map<string, string>, outcome: ApplyOutcome) {
    for (let found = true; found; ) {
      found = false;
      for (const name of touched) {
        for (const v of sqlite.pragma(`foreign_key_check(${q(name)})`) as { rowid: number | null }[]) {
          if (v.rowid === null) continue; // WITHOUT ROWID: the deferred check reports it
          const table = byName.get(name)!;
          const rowId = sqlite.prepare(`SELECT ${table.primaryKey.length === 1 ? q(table.primaryKey[0]) : `json_array(${table.primaryKey.map(q).join(', ')})`} AS id FROM ${q(name)} WHERE rowid = ?`).get(v.rowid) as { id: string };
          prepared(`DELETE FROM ${q(name)} WHERE rowid = ?`).run(v.rowid);
          outcome.skipped.push({ id: changeOf.get(`${name}\u0000${rowId.id}`) ?? '', reason: `${name} ${rowId.id}: its parent row was deleted` });
          found = true;
        }
      }
    }
  }

  return {
    /** Call inside a transaction, with capture off. */
    apply(entityId: string, changes: LoggedChange[]): ApplyOutcome {
      const outcome: ApplyOutcome = { applied: 0, skipped: [] };
      const touched = new Set<string>();
      const changeOf = new Map<string, string>();
      for (const change of changes) {
        // This device's own changes come back too: their stamps equal the local ones, so they change
        // nothing — unless the local value was given up (a discarded rejection), which they restore.
        const skipped = applyOne(entityId, change);
        if (skipped) outcome.skipped.push({ id: change.id, reason: skipped });
        else outcome.applied += 1;
        if (byName.has(change.table)) touched.add(change.table);
        changeOf.set(`${change.table}\u0000${change.rowId}`, change.id);
      }
      dropOrphans(touched, changeOf, outcome);
      return outcome;
    },
  };
}
