// Applying a staged snapshot (see snapshot.ts) in bounded slices: each slice is one short write
// transaction with capture off, and the event loop runs between slices, so a large entity's first
// sync does not hold every request of the device for seconds. Rows this device has never seen go
// in by set-based SQL, table by table (parents first), slices of staged rows in key
// order, their stamps in the same slice; rows it already has (a re-snapshot, or a slice that
// committed before a failed attempt) go through the applier a page at a time, last writer wins per
// column. The link keeps `needsSnapshot` until the last transaction, which applies the people and
// moves the cursor: a failure at any point leaves the link asking for a snapshot, and the next one
// is taken whole and applied over what is here (the applier converges on it). Why slices and not a
// worker thread: server/sync/README.md, "Snapshot".
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { applyPeople } from '../auth/index.js';
import type { Context } from '../context.js';
import { quoteIdent as q } from '../db/quote.js';
import { write } from '../db/write.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { DELETED, ROW_STAMP } from './capture.js';
import type { SyncEngine } from './engine-state.js';
import { invariant } from './invariant.js';
import { PROTOCOL_VERSION, snapshotRow, type LoggedChange, type SnapshotRow } from './protocol.js';
import { syncLinks } from './tables.js';

/**
 * Staged rows per slice, at most. A slice's cost per row depends on the table (its indexes and
 * triggers: 2,000 tickets took 90 ms where 2,000 ledger lines take a few), so each table starts
 * small and the size follows the time the last slice took, aiming at SLICE_MS.
 */
export const SLICE_ROWS = 2000;
const FIRST_SLICE_ROWS = 250;
const MIN_SLICE_ROWS = 50;
const SLICE_MS = 20;
/** Rows per transaction of the careful path (the applier, row by row), at most. */
const CAREFUL_ROWS = 500;
/** `how` of a staged row: inserted by set-based SQL, through the applier, or not for this entity. */
export const BULK = 0;
const APPLIER = 1;
const FOREIGN = 9;

const at = (column: string) => `'$.data.${q(column)}'`;

export interface ApplyOutcome {
  inserted: number;
  careful: number;
  skipped: number;
  orphans: number;
}

/** Lets the event loop run (timers, requests) between two slices. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The size of the next slice: the last one's scaled to SLICE_MS (at most doubled, within bounds). */
function sizer(max: number) {
  let rows = Math.min(FIRST_SLICE_ROWS, max);
  return {
    get rows() {
      return rows;
    },
    /** Runs one slice of `rows` rows and sizes the next one by its time. */
    time<T>(fn: () => T): T {
      const start = performance.now();
      const result = fn();
      const ms = performance.now() - start;
      rows = Math.max(MIN_SLICE_ROWS, Math.min(max, rows * 2, Math.round((rows * SLICE_MS) / Math.max(ms, 1))));
      return result;
    },
  };
}

/** A row's stamp per column, whichever way the hosted instance sent them. */
function stampsOf(row: SnapshotRow): Record<string, string> {
  const stamps = row.stamps;
  return typeof stamps === 'string' ? Object.fromEntries(Object.keys(row.data).map((c) => [c, stamps])) : stamps;
}

/**
 * A staged row as changes the applier understands: every column at the oldest stamp first (so a
 * row missing here can be created whole), then the columns written later, each at its own stamp.
 */
export function rowAsChanges(row: SnapshotRow, seq: number): LoggedChange[] {
  const stamps = stampsOf(row);
  const byStamp = new Map<string, Record<string, unknown>>();
  for (const [column, value] of Object.entries(row.data)) {
    const stamp = stamps[column];
    if (!stamp) continue;
    if (!byStamp.has(stamp)) byStamp.set(stamp, {});
    byStamp.get(stamp)![column] = value;
  }
  const order = [...byStamp.keys()].sort();
  if (order.length === 0) return [];
  const base = { seq, deviceId: '00000000-0000-0000-0000-000000000000', table: row.table, rowId: row.rowId, schemaVersion: PROTOCOL_VERSION };
  const change = (hlc: string, columns: Record<string, unknown>, op: LoggedChange['op']) => ({ ...base, id: crypto.randomUUID(), op, hlc, columns }) as LoggedChange;
  if (row.fact) return [change(order[order.length - 1], row.data, 'fact')];
  return [change(order[0], row.data, 'upsert'), ...order.slice(1).map((hlc) => change(hlc, byStamp.get(hlc)!, 'upsert'))];
}

interface ForeignKey {
  parent: string;
  from: string[];
  to: string[];
  onDelete: string;
}

/**
 * The table's foreign keys. A slice commits before the next table's rows are in, so a parent must
 * be in a table applied earlier (or one sync does not write, such as `entities`): a synced table
 * referring to itself or to a later one would need its rows in one transaction.
 */
function foreignKeysOf(ctx: Context, tables: SyncedTable[], table: SyncedTable): ForeignKey[] {
  const rows = ctx.sqlite.pragma(`foreign_key_list(${q(table.name)})`) as { id: number; table: string; from: string; to: string | null; on_delete: string }[];
  const position = tables.indexOf(table);
  const byId = new Map<number, ForeignKey>();
  for (const r of rows) {
    const parentAt = tables.findIndex((t) => t.name === r.table);
    invariant(parentAt < position, `a synced table's parents are applied before it (${table.name} → ${r.table})`);
    const fk = byId.get(r.id) ?? { parent: r.table, from: [], to: [], onDelete: r.on_delete };
    fk.from.push(r.from);
    if (r.to) fk.to.push(r.to);
    byId.set(r.id, fk);
  }
  for (const fk of byId.values()) {
    if (fk.to.length > 0) continue;
    // No column named: the parent's primary key.
    const pk = (ctx.sqlite.pragma(`table_info(${q(fk.parent)})`) as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    fk.to = pk.map((c) => c.name);
  }
  return [...byId.values()];
}

/**
 * The statements for one table. `@entity`, `@table` and the device-only values are bound; a
 * slice is the staged rows of the table with `row_id` in (`@after`, `@upTo`].
 */
function tableSql(ctx: Context, tables: SyncedTable[], table: SyncedTable, staged: string) {
  const mine = `s.table_name = @table AND s.row_id > @after AND s.row_id <= @upTo`;
  const pkMatch = table.primaryKey.map((c) => `t.${q(c)} = json_extract(s.line, ${at(c)})`).join(' AND ');
  const keyOfData =
    table.primaryKey.length === 1 ? `CAST(json_extract(s.line, ${at(table.primaryKey[0])}) AS TEXT)` : `json_array(${table.primaryKey.map((c) => `json_extract(s.line, ${at(c)})`).join(', ')})`;
  // Deleted: the `_deleted` column is set and no column was written after it (a later write brought the row back).
  const deleted = `(coalesce(json_extract(s.line, '$.data._deleted'), 0) NOT IN (0, '')
    AND NOT EXISTS (SELECT 1 FROM json_each(s.line, '$.stamps') j WHERE json_type(s.line, '$.stamps') = 'object' AND j.key <> '_deleted' AND j.value > json_extract(s.line, '$.stamps._deleted')))`;
  const stamped = [...table.columns, DELETED].map((c) => `'${c}'`).join(', ');
  const columnList = table.columns.map((c) => `'${c}'`).join(', ');
  const deviceOnly = Object.keys(table.deviceOnly);
  const names = [...table.columns, ...deviceOnly].map(q).join(', ');
  const values = [...table.columns.map((c) => (c === 'entity_id' ? '@entity' : `json_extract(s.line, ${at(c)})`)), ...deviceOnly.map((_, i) => `@device_only_${i}`)].join(', ');
  // In key order (the staging index's): rows and stamps then go into their B-trees nearly in order,
  // where arrival order made the stamps alone take twice as long.
  const insert = (or: string) => `INSERT ${or} INTO ${q(table.name)} (${names}) SELECT ${values} FROM ${staged} s WHERE ${mine} AND s.how = ${BULK} AND NOT ${deleted} ORDER BY s.table_name, s.row_id`;
  const prepare = (text: string) => ctx.sqlite.prepare(text);
  return {
    params: (entityId: string) => ({ entity: entityId, table: table.name, ...Object.fromEntries(deviceOnly.map((c, i) => [`device_only_${i}`, table.deviceOnly[c]])) }),
    // The last row_id of the slice after `@after` (or of the table, when fewer rows are left).
    sliceEnd: prepare(`SELECT max(row_id) AS upTo FROM (SELECT row_id FROM ${staged} WHERE table_name = @table AND row_id > @after ORDER BY row_id LIMIT @rows)`),
    // Another entity's row goes nowhere; rows this device has (or had: their stamps remain after a
    // delete), and rows whose key is not where expected, take the careful path. One pass for both.
    sort: prepare(`UPDATE ${staged} AS s SET how = CASE WHEN json_type(s.line, '$.data.entity_id') IS NOT NULL AND json_extract(s.line, '$.data.entity_id') IS NOT @entity THEN ${FOREIGN} ELSE ${APPLIER} END
      WHERE ${mine} AND (
        (json_type(s.line, '$.data.entity_id') IS NOT NULL AND json_extract(s.line, '$.data.entity_id') IS NOT @entity)
        OR ${keyOfData} IS NOT s.row_id
        OR EXISTS (SELECT 1 FROM sync_stamps st WHERE st.table_name = s.table_name AND st.row_id = s.row_id)
        OR EXISTS (SELECT 1 FROM ${q(table.name)} t WHERE ${pkMatch}))`),
    foreign: prepare(`SELECT count(*) AS n FROM ${staged} s WHERE ${mine} AND s.how = ${FOREIGN}`),
    insert: prepare(insert('')),
    insertOrIgnore: prepare(insert('OR IGNORE')),
    // A row the insert could not make (a unique index it collides with): the applier says why.
    missed: prepare(`UPDATE ${staged} AS s SET how = ${APPLIER} WHERE ${mine} AND s.how = ${BULK} AND NOT ${deleted}
      AND NOT EXISTS (SELECT 1 FROM ${q(table.name)} t WHERE ${pkMatch} AND t.entity_id = @entity)`),
    allCareful: prepare(`UPDATE ${staged} AS s SET how = ${APPLIER} WHERE ${mine} AND s.how = ${BULK}`),
    // Each row's JSON is taken apart once (a materialized CTE), not once per column. A row whose
    // columns all carry one stamp (nearly all: written once) gets the row-wide stamp instead of one
    // per column; `_deleted` always has its own.
    stamps: prepare(`WITH rows AS MATERIALIZED (
        SELECT s.table_name, s.row_id, jsonb_extract(s.line, '$.data') AS data,
          CASE WHEN json_type(s.line, '$.stamps') = 'text' THEN json_extract(s.line, '$.stamps') END AS one,
          CASE WHEN json_type(s.line, '$.stamps') = 'object' THEN jsonb_extract(s.line, '$.stamps') END AS many,
          json_type(s.line, '$.stamps') = 'text' AND (SELECT count(*) FROM json_each(s.line, '$.data') j WHERE j.key IN (${columnList})) = ${table.columns.length} AS whole
        FROM ${staged} s WHERE ${mine} AND s.how = ${BULK} ORDER BY s.table_name, s.row_id)
      INSERT INTO sync_stamps (table_name, row_id, "column", hlc)
      SELECT table_name, row_id, key, hlc FROM (
        SELECT w.table_name, w.row_id, '${ROW_STAMP}' AS key, w.one AS hlc FROM rows w WHERE w.whole
        UNION ALL
        SELECT w.table_name, w.row_id, '${DELETED}', w.one FROM rows w WHERE w.whole AND json_type(w.data, '$.${DELETED}') IS NOT NULL
        UNION ALL
        SELECT w.table_name, w.row_id, j.key, coalesce(w.one, json_extract(w.many, '$."' || j.key || '"'))
        FROM rows w, json_each(w.data) j WHERE NOT w.whole AND j.key IN (${stamped}))
      WHERE hlc IS NOT NULL
      ON CONFLICT (table_name, row_id, "column") DO UPDATE SET hlc = excluded.hlc`),
    // Rows the slice inserted whose parent is not here, one statement per foreign key (only the
    // slice's rows are looked at: checking the whole table per slice would grow with the table).
    orphans: foreignKeysOf(ctx, tables, table).map((fk) => ({
      fk,
      find: prepare(`SELECT t.rowid AS id FROM ${staged} s JOIN ${q(table.name)} t ON ${pkMatch} WHERE ${mine} AND s.how = ${BULK}
        AND ${fk.from.map((c) => `t.${q(c)} IS NOT NULL`).join(' AND ')}
        AND NOT EXISTS (SELECT 1 FROM ${q(fk.parent)} p WHERE ${fk.from.map((c, i) => `p.${q(fk.to[i])} = t.${q(c)}`).join(' AND ')})`),
      settle: prepare(
        fk.onDelete === 'SET NULL' ? `UPDATE ${q(table.name)} SET ${fk.from.map((c) => `${q(c)} = NULL`).join(', ')} WHERE rowid = ?` : `DELETE FROM ${q(table.name)} WHERE rowid = ?`,
      ),
    })),
    // In pages by rowid: the applier runs statements of its own, which an open iterator would forbid.
    careful: prepare(`SELECT s.rowid AS n, json(s.line) AS line FROM ${staged} s WHERE s.table_name = @table AND s.how = ${APPLIER} AND s.rowid > @afterRow ORDER BY s.rowid LIMIT @rows`),
  };
}
type TableSql = ReturnType<typeof tableSql>;

/** One transaction, capture off, foreign keys checked at its commit. */
function inSlice<T>(ctx: Context, engine: SyncEngine, fn: () => T): T {
  return write(ctx, () =>
    engine.capture.withoutCapture(() => {
      ctx.sqlite.pragma('defer_foreign_keys = ON');
      return fn();
    }),
  );
}

/**
 * One slice of set-based inserts. Savepoints: a row that cannot be inserted (a unique index, a
 * trigger that refuses it) leaves the others to a second, row-tolerant pass, and a slice that
 * fails even then takes the careful path. Rows whose parent is not here (deleted on another
 * device while this row was written) go as the parent's delete would have taken them here —
 * deleted for ON DELETE CASCADE (and any other rule), their reference cleared for SET NULL —
 * or the commit's foreign-key check would fail the snapshot on every retry.
 */
function bulkSlice(ctx: Context, statements: TableSql, params: Record<string, unknown>, outcome: ApplyOutcome): void {
  statements.sort.run(params);
  outcome.skipped += (statements.foreign.get(params) as { n: number }).n;
  let n = 0;
  try {
    n = ctx.sqlite.transaction(() => statements.insert.run(params).changes)();
  } catch {
    try {
      n = ctx.sqlite.transaction(() => statements.insertOrIgnore.run(params).changes)();
      statements.missed.run(params);
    } catch {
      statements.allCareful.run(params);
    }
  }
  outcome.inserted += n;
  statements.stamps.run(params);
  if (n === 0) return;
  for (const { find, settle } of statements.orphans) {
    for (const { id } of find.all(params) as { id: number }[]) {
      settle.run(id);
      outcome.orphans += 1;
    }
  }
}

/** The rows the set-based slices left to the applier, a page per transaction. */
async function applyCareful(ctx: Context, engine: SyncEngine, entityId: string, statements: TableSql, seq: number, outcome: ApplyOutcome): Promise<void> {
  const params = statements.params(entityId);
  const size = sizer(CAREFUL_ROWS);
  for (let afterRow = 0; ; ) {
    const rows = statements.careful.all({ ...params, afterRow, rows: size.rows }) as { n: number; line: string }[];
    if (rows.length === 0) return;
    afterRow = rows[rows.length - 1].n;
    const batch: LoggedChange[] = [];
    for (const { line } of rows) {
      const row = snapshotRow.safeParse(JSON.parse(line));
      if (!row.success) continue;
      outcome.careful += 1;
      batch.push(...rowAsChanges(row.data, seq));
    }
    const applied = size.time(() => inSlice(ctx, engine, () => engine.applier.apply(entityId, batch)));
    for (const s of applied.skipped) ctx.log.warn({ entityId, table: params.table, reason: s.reason }, 'sync: snapshot row not applied');
    outcome.skipped += applied.skipped.length;
    await yieldToLoop();
  }
}

/**
 * Applies the staged rows, slice by slice, and then, in one last transaction, the entity's people
 * and the cursor at `seq` (which ends the link's need of a snapshot).
 */
export async function applyStaged(ctx: Context, engine: SyncEngine, entityId: string, staged: string, seq: number): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { inserted: 0, careful: 0, skipped: 0, orphans: 0 };
  const all = engine.tables.map((table) => tableSql(ctx, engine.tables, table, staged));
  for (const statements of all) {
    const params = statements.params(entityId);
    const size = sizer(SLICE_ROWS);
    // Row ids are never empty (staging refuses them), so '' is before the first.
    for (let after = ''; ; ) {
      const { upTo } = statements.sliceEnd.get({ table: params.table, after, rows: size.rows }) as { upTo: string | null };
      if (upTo === null) break;
      size.time(() => inSlice(ctx, engine, () => bulkSlice(ctx, statements, { ...params, after, upTo }, outcome)));
      after = upTo;
      await yieldToLoop();
    }
  }
  for (const statements of all) await applyCareful(ctx, engine, entityId, statements, seq, outcome);
  write(ctx, (tx) =>
    engine.capture.withoutCapture(() => {
      // Every person of the entity, as the snapshot has them: users and memberships follow.
      applyPeople(ctx, tx, entityId);
      tx.update(syncLinks).set({ cursor: seq, needsSnapshot: false }).where(eq(syncLinks.entityId, entityId)).run();
    }),
  );
  return outcome;
}
