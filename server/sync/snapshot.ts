// Initial sync from a snapshot: a device that joins (or whose cursor the hosted log no longer
// covers) takes the entity's current rows with their per-column stamps instead of replaying the
// whole log, then pulls from the seq the snapshot is consistent with.
//
// The rows are staged in a temporary table as they arrive, as SQLite's binary JSON (parsed once,
// and memory stays flat whatever the size),
// then applied in one transaction with capture off: rows this device has never seen are inserted
// by set-based SQL (table by table, parents first), and their stamps written to sync_stamps in
// the same pass; rows it already has (a re-snapshot) go through the applier, last writer wins per
// column as for any pulled change. The cursor moves in that transaction: all or nothing.
import { applyPeople } from '../auth/index.js';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import type { LinkRow, SyncEngine } from './engine-state.js';
import { engineOf, writable } from './engine-state.js';
import { HostedError, streamHostedLines } from './hosted-client.js';
import { fetchMissingBlob } from './blob-fetch.js';
import { noteServerTime } from './clock.js';
import { DELETED, ROW_STAMP } from './capture.js';
import { MAX_SNAPSHOT_LINE_BYTES, PROTOCOL_VERSION, snapshotEnd, snapshotHeader, snapshotRow, type LoggedChange, type SnapshotRow } from './protocol.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { syncLinks } from './tables.js';
import { invariant } from './invariant.js';
import { quoteIdent as q } from '../db/quote.js';

const at = (column: string) => `'$.data.${q(column)}'`;
/** Rows staged per statement: the JSON of one batch is parsed by SQLite, not by JavaScript. */
const STAGE_BATCH = 2000;
/** `how` of a staged row: inserted by set-based SQL, through the applier, or not for this entity. */
const BULK = 0;
const APPLIER = 1;
const FOREIGN = 9;
/** Page cache of the TEMP database while a snapshot is staged (grows only as used). */
const TEMP_CACHE_KB = 256 * 1024;

export interface SnapshotProgress {
  (done: number, total: number): void;
}

/**
 * A staging table of its own for each snapshot (TEMP: this connection only, never in the
 * database file), dropped afterwards — dropping is much cheaper than deleting its rows. Lines
 * are appended as they come (jsonb_each hands each row over already in binary JSON) and keyed
 * only once all have arrived: inserting them into a keyed table in arrival order was random
 * B-tree inserts of large rows, a third of the staging time.
 */
function stage(ctx: Context) {
  const name = `sync_snapshot_${crypto.randomBytes(6).toString('hex')}`;
  // The staged rows are read table by table in key order, not in the order they arrived: with the
  // default 2 MB page cache that was a disk read per row (apply took 8 s instead of 4 for 100,000 rows).
  ctx.sqlite.pragma(`temp.cache_size = -${TEMP_CACHE_KB}`);
  ctx.sqlite.exec(`CREATE TEMP TABLE ${name} (table_name TEXT NOT NULL, row_id TEXT NOT NULL, line BLOB NOT NULL, how INTEGER NOT NULL DEFAULT ${BULK})`);
  const insert = ctx.sqlite.prepare(`INSERT INTO temp.${name} (table_name, row_id, line)
    SELECT json_extract(value, '$.table'), json_extract(value, '$.rowId'), value FROM jsonb_each(?)
    WHERE json_type(value, '$.table') = 'text' AND json_type(value, '$.rowId') = 'text' AND length(json_extract(value, '$.rowId')) <= 200
      AND json_type(value, '$.data') = 'object' AND json_type(value, '$.stamps') IN ('text', 'object')`);
  return {
    name: `temp.${name}`,
    /** Stages row lines. Returns how many were well-formed. */
    add: (lines: string[]) => {
      try {
        return ctx.sqlite.transaction(() => insert.run(`[${lines.join(',')}]`).changes)();
      } catch (err) {
        throw new HostedError(502, `The hosted instance sent a malformed snapshot (${(err as Error).message})`);
      }
    },
    /** Keys the staged rows; a later line for the same row replaces an earlier one (rows sent again at the end). */
    seal: () =>
      ctx.sqlite.transaction(() => {
        ctx.sqlite.exec(`CREATE INDEX temp.${name}_key ON ${name} (table_name, row_id)`);
        ctx.sqlite.exec(`DELETE FROM temp.${name} AS s WHERE EXISTS (SELECT 1 FROM temp.${name} l WHERE l.table_name = s.table_name AND l.row_id = s.row_id AND l.rowid > s.rowid)`);
      })(),
    drop: () => ctx.sqlite.exec(`DROP TABLE IF EXISTS temp.${name}`),
  };
}
type Staging = ReturnType<typeof stage>;

/** Downloads the snapshot into the staging table; returns the seq it is consistent with. */
async function download(ctx: Context, link: LinkRow, token: string, staging: Staging, progress: SnapshotProgress): Promise<{ seq: number; rows: number; malformed: number; serverTime: string }> {
  let header: { seq: number; rows: number; serverTime: string } | null = null;
  let end: { seq: number; rows: number; serverTime: string } | null = null;
  let staged = 0;
  let received = 0;
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    staged += staging.add(pending);
    received += pending.length;
    pending = [];
    progress(received, header?.rows ?? received);
  };
  await streamHostedLines(link.hostedUrl, '/sync/v1/snapshot', {
    token,
    maxLineBytes: MAX_SNAPSHOT_LINE_BYTES,
    // A snapshot of a large entity takes a while to produce, but data keeps arriving.
    idleMs: 60_000,
    onLines: (lines) => {
      for (const line of lines) {
        if (line.startsWith('{"kind"')) {
          const control = JSON.parse(line) as { kind?: string };
          if (control.kind === 'header' && !header) header = snapshotHeader.parse(control);
          else if (control.kind === 'end' && header && !end) end = snapshotEnd.parse(control);
          else throw new HostedError(502, 'The hosted instance sent a malformed snapshot');
          continue;
        }
        if (!header || end) throw new HostedError(502, 'The hosted instance sent a malformed snapshot');
        pending.push(line);
        if (pending.length >= STAGE_BATCH) flush();
      }
      flush();
    },
  });
  flush();
  const finished = end as { seq: number; rows: number; serverTime: string } | null;
  if (!finished) throw new HostedError(502, 'The snapshot was cut short; it is taken again on the next cycle');
  return { seq: finished.seq, rows: received, malformed: received - staged, serverTime: finished.serverTime };
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

/** The set-based statements for one table (`@entity`, `@table` and the device-only values are bound). */
function tableSql(table: SyncedTable, staged: string) {
  const mine = `s.table_name = @table`;
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
  return {
    params: (entityId: string) => ({ entity: entityId, table: table.name, ...Object.fromEntries(deviceOnly.map((c, i) => [`device_only_${i}`, table.deviceOnly[c]])) }),
    // Another entity's row goes nowhere; rows this device has (or had: their stamps remain after a
    // delete), and rows whose key is not where expected, take the careful path. One pass for both.
    sort: `UPDATE ${staged} AS s SET how = CASE WHEN json_type(s.line, '$.data.entity_id') IS NOT NULL AND json_extract(s.line, '$.data.entity_id') IS NOT @entity THEN ${FOREIGN} ELSE ${APPLIER} END
      WHERE ${mine} AND (
        (json_type(s.line, '$.data.entity_id') IS NOT NULL AND json_extract(s.line, '$.data.entity_id') IS NOT @entity)
        OR ${keyOfData} IS NOT s.row_id
        OR EXISTS (SELECT 1 FROM sync_stamps st WHERE st.table_name = s.table_name AND st.row_id = s.row_id)
        OR EXISTS (SELECT 1 FROM ${q(table.name)} t WHERE ${pkMatch}))`,
    foreign: `SELECT count(*) AS n FROM ${staged} s WHERE ${mine} AND s.how = ${FOREIGN}`,
    insert: insert(''),
    insertOrIgnore: insert('OR IGNORE'),
    // A row the insert could not make (a unique index it collides with): the applier says why.
    missed: `UPDATE ${staged} AS s SET how = ${APPLIER} WHERE ${mine} AND s.how = ${BULK} AND NOT ${deleted}
      AND NOT EXISTS (SELECT 1 FROM ${q(table.name)} t WHERE ${pkMatch} AND t.entity_id = @entity)`,
    // Each row's JSON is taken apart once (a materialized CTE), not once per column. A row whose
    // columns all carry one stamp (nearly all: written once) gets the row-wide stamp instead of one
    // per column; `_deleted` always has its own.
    stamps: `WITH rows AS MATERIALIZED (
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
      ON CONFLICT (table_name, row_id, "column") DO UPDATE SET hlc = excluded.hlc`,
    // In pages by rowid: the applier runs statements of its own, which an open iterator would forbid.
    careful: `SELECT s.rowid AS n, json(s.line) AS line FROM ${staged} s WHERE ${mine} AND s.how = ${APPLIER} AND s.rowid > @after ORDER BY s.rowid LIMIT 500`,
  };
}

/**
 * Rows whose parent is not here (deleted on another device while this row was written): they go
 * as the parent's delete would have taken them here — deleted for ON DELETE CASCADE (and any
 * other rule), their reference cleared for SET NULL. Left in place, the deferred foreign-key
 * check would fail the whole snapshot on every retry.
 */
function settleOrphans(ctx: Context, tables: string[]): number {
  let settled = 0;
  for (let found = true; found; ) {
    found = false;
    for (const name of tables) {
      const violations = ctx.sqlite.pragma(`foreign_key_check(${q(name)})`) as { rowid: number | null; fkid: number }[];
      if (violations.length === 0) continue;
      const fks = ctx.sqlite.pragma(`foreign_key_list(${q(name)})`) as { id: number; from: string; on_delete: string }[];
      for (const v of violations) {
        if (v.rowid === null) continue;
        const columns = fks.filter((f) => f.id === v.fkid);
        if (columns[0]?.on_delete === 'SET NULL') ctx.sqlite.prepare(`UPDATE ${q(name)} SET ${columns.map((f) => `${q(f.from)} = NULL`).join(', ')} WHERE rowid = ?`).run(v.rowid);
        else ctx.sqlite.prepare(`DELETE FROM ${q(name)} WHERE rowid = ?`).run(v.rowid);
        settled += 1;
        found = true;
      }
    }
  }
  return settled;
}

/** The newest stamp in the staged rows: the clock moves past it (or refuses it as clock skew) before anything is applied. */
function newestStamp(ctx: Context, staged: string): string | null {
  const row = ctx.sqlite
    .prepare<[], { hlc: string | null }>(
      `SELECT max(hlc) AS hlc FROM (
        SELECT json_extract(line, '$.stamps') AS hlc FROM ${staged} WHERE json_type(line, '$.stamps') = 'text'
        UNION ALL SELECT j.value FROM ${staged} s, json_each(s.line, '$.stamps') j WHERE json_type(s.line, '$.stamps') = 'object')`,
    )
    .get();
  return row?.hlc ?? null;
}

/** Applies the staged rows and moves the cursor to `seq`, in one transaction with capture off. */
function applyStaged(ctx: Context, engine: SyncEngine, entityId: string, staged: string, seq: number): { inserted: number; careful: number; skipped: number; orphans: number } {
  return write(ctx, (tx) =>
    engine.capture.withoutCapture(() => {
      ctx.sqlite.pragma('defer_foreign_keys = ON');
      let inserted = 0;
      let careful = 0;
      let skipped = 0;
      const bulkTables: string[] = [];
      for (const table of engine.tables) {
        const statements = tableSql(table, staged);
        const params = statements.params(entityId);
        ctx.sqlite.prepare(statements.sort).run(params);
        skipped += (ctx.sqlite.prepare(statements.foreign).get(params) as { n: number }).n;
        // Savepoints: a row that cannot be inserted (a unique index, a trigger that refuses it) leaves the
        // others to a second, row-tolerant pass, and a table that fails even then takes the careful path.
        let n = 0;
        try {
          n = ctx.sqlite.transaction(() => ctx.sqlite.prepare(statements.insert).run(params).changes)();
        } catch {
          try {
            n = ctx.sqlite.transaction(() => ctx.sqlite.prepare(statements.insertOrIgnore).run(params).changes)();
            ctx.sqlite.prepare(statements.missed).run(params);
          } catch {
            ctx.sqlite.prepare(`UPDATE ${staged} SET how = ${APPLIER} WHERE table_name = @table AND how = ${BULK}`).run({ table: table.name });
          }
        }
        if (n > 0) bulkTables.push(table.name);
        inserted += n;
        ctx.sqlite.prepare(statements.stamps).run(params);
      }
      const orphans = settleOrphans(ctx, bulkTables);
      for (const table of engine.tables) {
        let batch: LoggedChange[] = [];
        const applyBatch = () => {
          const outcome = engine.applier.apply(entityId, batch);
          for (const s of outcome.skipped) ctx.log.warn({ entityId, table: table.name, reason: s.reason }, 'sync: snapshot row not applied');
          skipped += outcome.skipped.length;
          batch = [];
        };
        const statements = tableSql(table, staged);
        const page = ctx.sqlite.prepare(statements.careful);
        for (let after = 0; ; ) {
          const rows = page.all({ ...statements.params(entityId), after }) as { n: number; line: string }[];
          if (rows.length === 0) break;
          after = rows[rows.length - 1].n;
          for (const { line } of rows) {
            const row = snapshotRow.safeParse(JSON.parse(line));
            if (!row.success) continue;
            careful += 1;
            batch.push(...rowAsChanges(row.data, seq));
          }
          applyBatch();
        }
      }
      // Every person of the entity, as the snapshot has them: users and memberships follow.
      applyPeople(ctx, tx, entityId);
      tx.update(syncLinks).set({ cursor: seq, needsSnapshot: false }).where(eq(syncLinks.entityId, entityId)).run();
      return { inserted, careful, skipped, orphans };
    }),
  );
}

/** Takes the entity's snapshot and applies it; afterwards the device pulls from the returned seq. */
export async function syncFromSnapshot(ctx: Context, link: LinkRow, token: string, progress: SnapshotProgress): Promise<number> {
  const engine = engineOf(ctx);
  const staging = stage(ctx);
  try {
    const { seq, rows, malformed, serverTime } = await download(ctx, link, token, staging, progress);
    staging.seal();
    // Before the stamps are compared with this clock: a clock far behind would refuse them all.
    noteServerTime(ctx, engine, link.entityId, serverTime);
    writable(engine, link.entityId);
    // Files the rows name (by their tables' blob columns) come down before the rows are applied.
    for (const table of engine.tables) {
      for (const column of table.blobs) {
        const named = ctx.sqlite.prepare<[string], { sha: unknown }>(`SELECT DISTINCT json_extract(line, ${at(column)}) AS sha FROM ${staging.name} WHERE table_name = ?`).all(table.name);
        for (const { sha } of named) await fetchMissingBlob(ctx, link, token, sha);
      }
    }
    const newest = newestStamp(ctx, staging.name);
    if (newest) engine.capture.observe(newest);
    const outcome = applyStaged(ctx, engine, link.entityId, staging.name, seq);
    invariant(outcome.inserted + outcome.careful <= rows, 'a snapshot row is applied at most once');
    ctx.log.info({ entityId: link.entityId, seq, rows, malformed, ...outcome }, 'sync: snapshot applied');
    return seq;
  } finally {
    // Whatever happened, the staged rows go (a failed snapshot is taken again whole).
    staging.drop();
  }
}
