// pullChanges: the entity's log after a cursor, in seq order, waiting (long-poll) when empty.
import { and, asc, eq, gt } from 'drizzle-orm';
import type { LoggedChange, PullResponse } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { changes } from './schema.js';

/** How often a waiting pull looks again (one indexed query). */
const POLL_MS = 200;

export async function pullChanges(h: HostedContext, auth: DeviceAuth, q: { cursor: number; limit: number; waitMs: number }, aborted: AbortSignal): Promise<PullResponse> {
  const deadline = Date.now() + q.waitMs;
  for (;;) {
    const found = await h.store.db
      .select()
      .from(changes)
      .where(and(eq(changes.entityId, auth.entityId), gt(changes.seq, q.cursor)))
      .orderBy(asc(changes.seq))
      .limit(q.limit + 1);
    if (found.length > 0 || Date.now() >= deadline || aborted.aborted || h.closing.aborted) {
      const page = found.slice(0, q.limit);
      const delivered: LoggedChange[] = page.map((c) => ({
        id: c.id,
        seq: c.seq,
        deviceId: c.deviceId,
        table: c.tableName,
        rowId: c.rowId,
        op: c.op,
        columns: c.columns as LoggedChange['columns'],
        ...(c.expect ? { expect: c.expect as LoggedChange['columns'] } : {}),
        hlc: c.hlc,
        schemaVersion: c.schemaVersion,
      }));
      return { serverTime: serverTime(h), changes: delivered, cursor: page.at(-1)?.seq ?? q.cursor, hasMore: found.length > q.limit };
    }
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}
