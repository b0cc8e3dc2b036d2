// pullChanges: the entity's log after a cursor, in seq order, waiting (long-poll) when empty.
import { and, eq, sql } from 'drizzle-orm';
import { REMOVED_MEMBER_MESSAGE, type LoggedChange, type PullPage } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { changes, devices, entities, members } from './schema.js';
import { UnauthorizedError } from '../http/errors.js';

/**
 * A waiting pull is woken by the change feed the moment a push commits; it still looks again this
 * often in case a wake-up was lost (a PostgreSQL listener that reconnected).
 */
const SAFETY_POLL_MS = 5_000;

/**
 * A page of the log as JSON made by the database: decoding the jsonb columns into objects here only
 * for the response to encode them again was a third of a pull's time (profiled). The text is sent
 * as it is (see pullPageJson), and `changes` holds it until then.
 */
async function readLog(h: HostedContext, entityId: string, cursor: number, limit: number): Promise<{ changes: LoggedChange[]; last: number | null }> {
  const result = (await h.store.db.execute(sql`
    select coalesce(jsonb_agg(
             jsonb_build_object('id', id, 'seq', seq, 'deviceId', device_id, 'table', table_name, 'rowId', row_id, 'op', op, 'columns', columns, 'hlc', hlc, 'schemaVersion', schema_version)
             || case when expect is null then '{}'::jsonb else jsonb_build_object('expect', expect) end
             order by seq)::text, '[]') as changes,
           max(seq) as last
    from (select * from ${changes} where entity_id = ${entityId} and seq > ${cursor} order by seq limit ${limit}) page`)) as unknown as { rows: { changes: string; last: number | string | null }[] };
  const [row] = result.rows;
  return { changes: new RawJson(row.changes) as unknown as LoggedChange[], last: row.last === null ? null : Number(row.last) };
}

/** JSON text that goes into a response as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The page as the response body: the log's JSON text spliced in unchanged. */
export function pullPageJson(page: PullPage): string {
  const raw = (page.changes as unknown) instanceof RawJson ? (page.changes as unknown as RawJson).text : JSON.stringify(page.changes);
  const { changes: _changes, ...rest } = page;
  return `${JSON.stringify(rest).slice(0, -1)},"changes":${raw}}`;
}

/** Why the device may no longer pull (revoked, or its account removed from the entity meanwhile), or null. */
async function revoked(h: HostedContext, auth: DeviceAuth): Promise<string | null> {
  const [row] = await h.store.db
    .select({ revokedAt: devices.revokedAt, role: members.role })
    .from(devices)
    .leftJoin(members, and(eq(members.entityId, devices.entityId), eq(members.accountId, devices.accountId)))
    .where(eq(devices.id, auth.deviceId));
  if (row && row.revokedAt === null) return null;
  return row && !row.role ? REMOVED_MEMBER_MESSAGE : 'This device has been revoked';
}

export async function pullChanges(h: HostedContext, auth: DeviceAuth, q: { cursor: number; limit: number; waitMs: number }, aborted: AbortSignal): Promise<PullPage> {
  const deadline = Date.now() + q.waitMs;
  const stopped = () => aborted.aborted || h.closing.aborted;
  for (let waited = false; ; waited = true) {
    // Back from waiting: the device may have been revoked meanwhile (a revoke wakes the entity's pulls).
    const refusal = waited ? await revoked(h, auth) : null;
    if (refusal) throw new UnauthorizedError(refusal);
    // Listening before looking: a push that commits between the look and the wait still wakes this pull.
    const settled = new AbortController();
    const wake = h.feed.wait(auth.entityId, Math.min(SAFETY_POLL_MS, Math.max(0, deadline - Date.now())), [aborted, h.closing, settled.signal]);
    const answer = await look().catch((err: unknown) => {
      settled.abort();
      throw err;
    });
    if (answer) {
      settled.abort();
      return answer;
    }
    await wake;
  }

  async function look(): Promise<PullPage | null> {
    const [entity] = await h.store.db.select({ lastSeq: entities.lastSeq, compactedThrough: entities.compactedThrough }).from(entities).where(eq(entities.id, auth.entityId));
    // A cursor the log no longer covers, or one from the future (this instance was restored from an older backup).
    if (q.cursor < entity.compactedThrough || q.cursor > entity.lastSeq) {
      return { serverTime: serverTime(h), changes: [], cursor: q.cursor, hasMore: false, head: entity.lastSeq, mustRefetch: true };
    }
    if (entity.lastSeq > q.cursor) {
      const page = await readLog(h, auth.entityId, q.cursor, q.limit);
      return { serverTime: serverTime(h), changes: page.changes, cursor: page.last ?? q.cursor, hasMore: (page.last ?? q.cursor) < entity.lastSeq, head: entity.lastSeq };
    }
    if (Date.now() >= deadline || stopped()) return { serverTime: serverTime(h), changes: [], cursor: q.cursor, hasMore: false, head: entity.lastSeq };
    return null;
  }
}
