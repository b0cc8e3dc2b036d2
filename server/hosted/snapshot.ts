// streamSnapshot: the entity's current rows with their per-column stamps, as NDJSON, for a device
// that joins (or whose cursor the log no longer covers) — instead of replaying the whole log.
//
// Consistency without a long transaction: the rows are read in pages while pushes go on (a
// long read transaction would block every push on PGlite, which runs one at a time). Then one
// short transaction takes the entity's row lock (shared: no push can commit meanwhile), reads
// the final seq and sends again every row a push touched since the start (`rows.seq` > the seq
// at the start). A later line for a row replaces an earlier one on the device, so each row ends
// at its state as of the final seq, which is where the device's pulls continue.
import type { Response } from 'express';
import { eq, sql } from 'drizzle-orm';
import { invariant } from '../sync/invariant.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import type { HostedDb, HostedTx } from './store.js';
import { entities } from './schema.js';

/**
 * Bounds of one query. PGlite runs in-process: a query holds the event loop for its whole
 * duration, so pages are kept to a few tens of milliseconds (10,000-row pages, and one count over
 * the whole entity, held it for half a second on an entity of millions of rows). A page ends at
 * PAGE_ROWS rows or once its rows take PAGE_BYTES as stored (whichever first), so large rows make
 * short pages from the first one on. The count is taken COUNT_ROWS rows at a time.
 */
export const PAGE_ROWS = 2_000;
const PAGE_BYTES = 2 * 1024 * 1024;
const COUNT_ROWS = 50_000;

/**
 * One NDJSON line per row, made by the database. `stamps` is as stored: one stamp when every
 * column shares it (a row written once, nearly all of them), which halves the bytes sent and the
 * device's work.
 */
const LINE = sql.raw(`'{"table":' || to_json(table_name)::text || ',"rowId":' || to_json(row_id)::text || ',"data":' || data::text
    || ',"stamps":' || stamps::text || ',"fact":' || is_fact::text || '}'`);

interface Page {
  lines: string | null;
  n: number;
  last: number | null;
}

/**
 * Rows after `after`, in seq order: the order they were last written, nearly the order they lie
 * on disk (key order was random I/O on a large entity: twice as slow, measured). The page is cut
 * by the stored size of the rows before it (its first row is always in). The order of lines
 * within a page does not matter to the device, so the aggregate does not sort.
 */
async function readPage(db: HostedDb | HostedTx, entityId: string, seqs: { after: number; upTo: number }): Promise<Page> {
  const result = (await db.execute(sql`
    select string_agg(line, E'\n') as lines, count(*)::int as n, max(seq) as last
    from (select seq, ${LINE} as line from (
      select r.*, sum(pg_column_size(r.data) + pg_column_size(r.stamps)) over (order by r.seq rows between unbounded preceding and 1 preceding) as before
      from rows r where r.entity_id = ${entityId} and r.seq > ${seqs.after} and r.seq <= ${seqs.upTo} order by r.entity_id, r.seq limit ${PAGE_ROWS}) w
    where coalesce(w.before, 0) < ${PAGE_BYTES}) page`)) as unknown as { rows: Page[] };
  const [page] = result.rows;
  return { lines: page.lines, n: Number(page.n), last: page.last === null ? null : Number(page.last) };
}

/** Every page of the entity's rows last written in (after, upTo], each one query. */
export async function* snapshotPages(db: HostedDb | HostedTx, entityId: string, seqs: { after: number; upTo: number }): AsyncGenerator<{ lines: string; n: number }> {
  for (let after = seqs.after; ; ) {
    const page = await readPage(db, entityId, { after, upTo: seqs.upTo });
    if (page.n === 0 || page.last === null) return;
    yield { lines: page.lines!, n: page.n };
    after = page.last;
  }
}

/** The entity's rows, counted COUNT_ROWS at a time (one count over millions of rows held the loop). */
async function countRows(db: HostedDb, entityId: string): Promise<number> {
  let total = 0;
  for (let after = 0; ; ) {
    const result = (await db.execute(
      sql`select count(*)::int as n, max(seq) as last from (select seq from rows where entity_id = ${entityId} and seq > ${after} order by entity_id, seq limit ${COUNT_ROWS}) w`,
    )) as unknown as { rows: { n: number; last: number | null }[] };
    const { n, last } = result.rows[0];
    total += Number(n);
    if (Number(n) < COUNT_ROWS || last === null) return total;
    after = Number(last);
  }
}

/** Writes with back-pressure; false once the client has gone. */
async function write(res: Response, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !res.destroyed;
}

/** Every page of rows last written in (after, upTo]; the number of rows sent, or null when the client left. */
async function sendPages(db: HostedDb | HostedTx, res: Response, entityId: string, seqs: { after: number; upTo: number }, closing: AbortSignal): Promise<number | null> {
  let sent = 0;
  for await (const page of snapshotPages(db, entityId, seqs)) {
    if (closing.aborted) return null;
    if (!(await write(res, `${page.lines}\n`))) return null;
    sent += page.n;
  }
  return sent;
}

export async function streamSnapshot(h: HostedContext, auth: DeviceAuth, res: Response): Promise<void> {
  const db = h.store.db;
  const [start] = await db.select({ lastSeq: entities.lastSeq }).from(entities).where(eq(entities.id, auth.entityId));
  invariant(start, 'a device belongs to an existing entity');
  const counted = await countRows(db, auth.entityId);
  res.status(200);
  res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  const header = { kind: 'header', serverTime: serverTime(h), seq: start.lastSeq, rows: counted };
  if (!(await write(res, `${JSON.stringify(header)}\n`))) return;
  const first = await sendPages(db, res, auth.entityId, { after: 0, upTo: start.lastSeq }, h.closing);
  if (first === null) return void res.destroy();
  const end = await db.transaction(async (tx) => {
    const [entity] = await tx.select({ lastSeq: entities.lastSeq }).from(entities).where(eq(entities.id, auth.entityId)).for('share');
    if (entity.lastSeq === start.lastSeq) return { seq: entity.lastSeq, rows: first };
    const again = await sendPages(tx, res, auth.entityId, { after: start.lastSeq, upTo: entity.lastSeq }, h.closing);
    return again === null ? null : { seq: entity.lastSeq, rows: first + again };
  });
  if (!end) return void res.destroy();
  // The end line tells a complete snapshot from one cut short: without it the device discards what it read.
  await write(res, `${JSON.stringify({ kind: 'end', serverTime: serverTime(h), ...end })}\n`);
  res.end();
}
