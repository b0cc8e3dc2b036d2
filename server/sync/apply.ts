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

  /** Per table and foreign key: whether the row with this key (and entity) has a parent missing. */
  const orphanChecks = new Map<string, Database.Statement[]>();
  const orphanChecksOf = (table: SyncedTable) => {
    let checks = orphanChecks.get(table.name);
    if (checks) return checks;
    const fks = new Map<number, { parent: string; from: string[]; to: (string | null)[] }>();
    for (const r of sqlite.pragma(`foreign_key_list(${q(table.name)})`) as { id: number; table: string; from: string; to: string | null }[]) {
      const fk = fks.get(r.id) ?? { parent: r.table, from: [], to: [] };
      fk.from.push(r.from);
      fk.to.push(r.to);
      fks.set(r.id, fk);
    }
    const where = `${table.primaryKey.map((c) => `t.${q(c)} = ?`).join(' AND ')} AND t.entity_id = ?`;
    checks = [...fks.values()].map((fk) => {
      // No column named: the parent's primary key.
      const pk = (sqlite.pragma(`table_info(${q(fk.parent)})`) as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      const to = fk.to.map((c, i) => c ?? pk[i]);
      return sqlite.prepare(`SELECT 1 FROM ${q(table.name)} t WHERE ${where} AND ${fk.from.map((c) => `t.${q(c)} IS NOT NULL`).join(' AND ')}
        AND NOT EXISTS (SELECT 1 FROM ${q(fk.parent)} p WHERE ${fk.from.map((c, i) => `p.${q(to[i])} = t.${q(c)}`).join(' AND ')})`);
    });
    orphanChecks.set(table.name, checks);
    return checks;
  };

  /**
   * Rows whose parent the log deleted (a folder deleted on one device while another shared it):
   * they go as ON DELETE CASCADE takes them wherever the parent's delete is applied after them.
   * Left in place, the deferred foreign-key check would fail this page's transaction on every
   * retry and the device would never sync again. Only the rows this page wrote are looked at (a
   * parent's delete cascades by itself): a check of the whole table per page grew with the table.
   */
  function dropOrphans(entityId: string, written: Map<string, string>, outcome: ApplyOutcome) {
    for (const [at, changeId] of written) {
      const [name, rowId] = at.split('\u0000');
      const table = byName.get(name)!;
      const key = keyOf(table, rowId);
      if (!key) continue;
      if (!orphanChecksOf(table).some((check) => check.get(...(key as never[]), entityId) !== undefined)) continue;
      prepared(`DELETE FROM ${q(name)} WHERE ${table.primaryKey.map((c) => `${q(c)} = ?`).join(' AND ')} AND entity_id = ?`).run(...(key as never[]), entityId);
      outcome.skipped.push({ id: changeId, reason: `${name} ${rowId}: its parent row was deleted` });
    }
  }

  return {
    /** Call inside a transaction, with capture off. */
    apply(entityId: string, changes: LoggedChange[]): ApplyOutcome {
      const outcome: ApplyOutcome = { applied: 0, skipped: [] };
      // Rows of known tables this page wrote, by table and row id: the change that wrote each last.
      const written = new Map<string, string>();
      for (const change of changes) {
        // This device's own changes come back too: their stamps equal the local ones, so they change
        // nothing — unless the local value was given up (a discarded rejection), which they restore.
        const skipped = applyOne(entityId, change);
        if (skipped) outcome.skipped.push({ id: change.id, reason: skipped });
        else outcome.applied += 1;
        if (byName.has(change.table)) written.set(`${change.table}\u0000${change.rowId}`, change.id);
      }
      dropOrphans(entityId, written, outcome);
      return outcome;
    },
  };
}
