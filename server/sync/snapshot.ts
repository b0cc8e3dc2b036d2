// Initial sync from a snapshot: a device that joins (or whose cursor the hosted log no longer
// covers) takes the entity's current rows with their per-column stamps instead of replaying the
// whole log, then pulls from the seq the snapshot is consistent with.
//
// The rows are staged in a temporary table as they arrive, as SQLite's binary JSON (parsed once,
// and memory stays flat whatever the size), then applied in bounded slices (snapshot-apply.ts).
// Every step holds the event loop for one batch or one slice, never for the whole snapshot.
import crypto from 'node:crypto';
import type { Context } from '../context.js';
import type { LinkRow } from './engine-state.js';
import { engineOf, writable } from './engine-state.js';
import { HostedError, streamHostedLines } from './hosted-client.js';
import { fetchMissingBlob } from './blob-fetch.js';
import { noteServerTime } from './clock.js';
import { MAX_SNAPSHOT_LINE_BYTES, snapshotEnd, snapshotHeader } from './protocol.js';
import { invariant } from './invariant.js';
import { quoteIdent as q } from '../db/quote.js';
import { applyStaged, BULK } from './snapshot-apply.js';

const at = (column: string) => `'$.data.${q(column)}'`;
/** Rows staged per statement: the JSON of one batch is parsed by SQLite, not by JavaScript. */
const STAGE_BATCH = 2000;
/** Page cache of the TEMP database while a snapshot is staged (grows only as used). */
const TEMP_CACHE_KB = 256 * 1024;

export interface SnapshotProgress {
  (done: number, total: number): void;
}

/**
 * A staging table of its own for each snapshot (TEMP: this connection only, never in the
 * database file), dropped afterwards — dropping is much cheaper than deleting its rows. Lines
 * are keyed as they come (jsonb_each hands each row over already in binary JSON; a later line for
 * the same row replaces an earlier one: rows sent again at the end). Keying once all had arrived
 * was cheaper in all, but one index build and one pass over every row: seconds of a held event
 * loop on a large entity, where keying batch by batch holds it for one batch.
 */
function stage(ctx: Context) {
  const name = `sync_snapshot_${crypto.randomBytes(6).toString('hex')}`;
  // The staged rows are read table by table in key order, not in the order they arrived: with the
  // default 2 MB page cache that was a disk read per row (apply took 8 s instead of 4 for 100,000 rows).
  ctx.sqlite.pragma(`temp.cache_size = -${TEMP_CACHE_KB}`);
  ctx.sqlite.exec(`CREATE TEMP TABLE ${name} (table_name TEXT NOT NULL, row_id TEXT NOT NULL, line BLOB NOT NULL, how INTEGER NOT NULL DEFAULT ${BULK})`);
  ctx.sqlite.exec(`CREATE UNIQUE INDEX temp.${name}_key ON ${name} (table_name, row_id)`);
  // Row ids are never empty: the slices of snapshot-apply.ts start after ''.
  const insert = ctx.sqlite.prepare(`INSERT OR REPLACE INTO temp.${name} (table_name, row_id, line)
    SELECT json_extract(value, '$.table'), json_extract(value, '$.rowId'), value FROM jsonb_each(?)
    WHERE json_type(value, '$.table') = 'text' AND json_type(value, '$.rowId') = 'text' AND length(json_extract(value, '$.rowId')) BETWEEN 1 AND 200
      AND json_type(value, '$.data') = 'object' AND json_type(value, '$.stamps') IN ('text', 'object')`);
  const lastRow = ctx.sqlite.prepare<[], { n: number }>(`SELECT coalesce(max(rowid), 0) AS n FROM temp.${name}`);
  // The newest stamp of the rows just staged: the clock moves past the newest of all (or refuses
  // it as clock skew) before anything is applied.
  const newestOf = ctx.sqlite.prepare<[{ after: number }], { hlc: string | null }>(`SELECT max(hlc) AS hlc FROM (
      SELECT json_extract(line, '$.stamps') AS hlc FROM temp.${name} WHERE rowid > @after AND json_type(line, '$.stamps') = 'text'
      UNION ALL SELECT j.value FROM temp.${name} s, json_each(s.line, '$.stamps') j WHERE s.rowid > @after AND json_type(s.line, '$.stamps') = 'object')`);
  let newest: string | null = null;
  return {
    name: `temp.${name}`,
    /** Stages row lines. Returns how many were well-formed. */
    add: (lines: string[]) => {
      try {
        return ctx.sqlite.transaction(() => {
          const before = lastRow.get()!.n;
          const n = insert.run(`[${lines.join(',')}]`).changes;
          const hlc = newestOf.get({ after: before })?.hlc ?? null;
          if (hlc !== null && (newest === null || hlc > newest)) newest = hlc;
          return n;
        })();
      } catch (err) {
        throw new HostedError(502, `The hosted instance sent a malformed snapshot (${(err as Error).message})`);
      }
    },
    /** The newest stamp of every row staged. */
    newest: () => newest,
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

/** Takes the entity's snapshot and applies it; afterwards the device pulls from the returned seq. */
export async function syncFromSnapshot(ctx: Context, link: LinkRow, token: string, progress: SnapshotProgress): Promise<number> {
  const engine = engineOf(ctx);
  const staging = stage(ctx);
  try {
    const { seq, rows, malformed, serverTime } = await download(ctx, link, token, staging, progress);
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
    const newest = staging.newest();
    if (newest) engine.capture.observe(newest);
    const outcome = await applyStaged(ctx, engine, link.entityId, staging.name, seq);
    invariant(outcome.inserted + outcome.careful <= rows, 'a snapshot row is applied at most once');
    ctx.log.info({ entityId: link.entityId, seq, rows, malformed, ...outcome }, 'sync: snapshot applied');
    return seq;
  } finally {
    // Whatever happened, the staged rows go (a failed snapshot is taken again whole).
    staging.drop();
  }
}
