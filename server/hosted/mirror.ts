// The hosted instance reading its mirror of an entity's rows, and writing to it as one more
// writer: its own changes (a signer signing on a public page) go through the same log, rules and
// guards as a device's push, so every device applies them as it applies any other device's.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { ConflictError } from '../http/errors.js';
import { formatStamp, parseStamp, receive, tick, type HlcState } from '../sync/hlc.js';
import { HOSTED_DEVICE_ID, PROTOCOL_VERSION, type Change } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { appendChanges } from './push.js';
import { entities, rows } from './schema.js';
import type { HostedTx } from './store.js';


export type RowData = Record<string, unknown>;

/**
 * A row that is not deleted. Compared as text, never cast: one tenant's row with a `_deleted` that
 * does not cast would fail every query that meets it, across tenants (the token lookup reads all).
 */
export const notDeleted = sql`coalesce(${rows.data} ->> '_deleted', '0') in ('0', 'false')`;
const live = notDeleted;

/** A live row by id, or null. */
export async function mirroredRow(tx: HostedTx, entityId: string, table: string, rowId: string): Promise<RowData | null> {
  const [row] = await tx
    .select({ data: rows.data })
    .from(rows)
    .where(and(eq(rows.entityId, entityId), eq(rows.tableName, table), eq(rows.rowId, rowId), live));
  return row?.data ?? null;
}

/** The live rows of one signature request in a table that has a `request_id` column. */
export async function mirroredRowsOfRequest(tx: HostedTx, entityId: string, table: 'signers' | 'signature_fields' | 'signature_audit', requestId: string): Promise<RowData[]> {
  const found = await tx
    .select({ data: rows.data })
    .from(rows)
    // The table name as a literal, so the planner can use the partial index on a request's rows.
    .where(and(eq(rows.entityId, entityId), sql`${rows.tableName} = ${sql.raw(`'${table}'`)}`, sql`(${rows.data} ->> 'request_id') = ${requestId}`, live));
  return found.map((r) => r.data);
}

/**
 * The signer whose token hashes to `tokenHash`, in whichever entity. A device's hashes are unique,
 * but a tenant chooses what it pushes: a hash found twice (a tenant copying the hash of a link it
 * was sent) is refused rather than showing one tenant's request through another's link.
 */
export async function mirroredSignerByTokenHash(tx: HostedTx, tokenHash: string): Promise<{ entityId: string; data: RowData } | null> {
  const found = await tx
    .select({ entityId: rows.entityId, data: rows.data })
    .from(rows)
    .where(and(sql`${rows.tableName} = 'signers'`, sql`(${rows.data} ->> 'token_hash') = ${tokenHash}`, live))
    .limit(2);
  if (found.length > 1) throw new ConflictError('This signing link is not unique on this instance; ask the sender for a new one');
  return found[0] ?? null;
}

// Each hosted process writes with its own node id; the stamps of the rows it writes are received
// first, so its write is newer than every write it has seen (last writer wins, per column).
const clocks = new WeakMap<HostedContext, HlcState>();

function nextStamp(h: HostedContext, seen: string[]): string {
  let last = clocks.get(h) ?? { wallMs: 0, counter: 0, node: `hosted${crypto.randomBytes(5).toString('hex')}` };
  const now = h.clock.now().getTime();
  for (const stamp of seen) {
    const remote = parseStamp(stamp);
    if (remote) last = receive(last, remote, Math.max(now, remote.wallMs));
  }
  last = tick(last, now);
  clocks.set(h, last);
  return formatStamp(last);
}

/** The newest stamp of the given rows (their per-column stamps or their row stamp). */
async function stampsOf(tx: HostedTx, entityId: string, keys: { table: string; rowId: string }[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const found = await tx
    .select({ stamps: rows.stamps })
    .from(rows)
    .where(and(eq(rows.entityId, entityId), sql`(${rows.tableName}, ${rows.rowId}) in (select t, r from jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ t: k.table, r: k.rowId })))}::jsonb) as x(t text, r text))`));
  return found.flatMap((r) => (typeof r.stamps === 'string' ? [r.stamps] : Object.values(r.stamps)));
}

/** A change the hosted instance makes; its stamp and ids are filled in by `recordHostedChanges`. */
export type HostedChange = Pick<Change, 'table' | 'rowId' | 'op' | 'columns' | 'expect'>;

/**
 * Appends the hosted instance's own changes as one group of the entity's log, inside `tx` (which
 * holds the entity's lock or takes it, and which the caller commits, then wakes the feed): stamped
 * newer than every write of the rows they touch. Any refusal throws: the caller's transaction undoes all.
 */
export async function appendHostedChanges(h: HostedContext, tx: HostedTx, entityId: string, changes: HostedChange[]): Promise<void> {
  if (changes.length === 0) return;
  const hlc = nextStamp(h, await stampsOf(tx, entityId, changes.map((c) => ({ table: c.table, rowId: c.rowId }))));
  const group = uuidv7();
  const batch: Change[] = changes.map((c) => ({ ...c, id: uuidv7(), hlc, schemaVersion: PROTOCOL_VERSION, group }));
  const results = await appendChanges(h, tx, { entityId, deviceId: HOSTED_DEVICE_ID }, batch);
  const refused = results.find((r) => r.status === 'rejected');
  if (refused) throw new ConflictError(`Changed elsewhere at the same moment; try again (${'reason' in refused ? refused.reason : ''})`);
}

/**
 * Writes the changes `build` returns as one group of the entity's log, in one transaction that
 * holds the entity's lock while `build` reads: nothing another writer does can slip in between
 * what was read and what is written. Any refusal (a guard no longer holds) undoes the whole group.
 */
export async function recordHostedChanges<T>(h: HostedContext, entityId: string, build: (tx: HostedTx) => Promise<{ changes: HostedChange[]; result: T }>): Promise<T> {
  const result = await h.store.db.transaction(async (tx) => {
    const [entity] = await tx.select({ id: entities.id }).from(entities).where(eq(entities.id, entityId)).for('update');
    if (!entity) throw new ConflictError('This business is no longer linked');
    const built = await build(tx);
    await appendHostedChanges(h, tx, entityId, built.changes);
    return built.result;
  });
  // Waiting pulls answer now: devices that are online see the signature at once.
  await h.feed.changed(entityId).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
  return result;
}
