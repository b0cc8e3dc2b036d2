// pushChanges: a device's batch of captured changes becomes part of the entity's log.
//
// The whole batch is one transaction that first locks the entity's row: pushes to one entity
// take turns there, so each gets its seqs only after the previous push committed — seq order is
// commit order even with several hosted processes on one PostgreSQL, and a reader following
// the cursor never skips a change that commits late.
import { and, eq, sql } from 'drizzle-orm';
import { stringify } from 'safe-stable-stringify';
import { ConflictError, ForbiddenError, HttpError } from '../http/errors.js';
import { MAX_DRIFT_MS, parseStamp } from '../sync/hlc.js';
import { invariant } from '../sync/invariant.js';
import { HOSTED_DEVICE_ID, PROTOCOL_VERSION, type Change, type PushResponse, type PushResult } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import type { HostedTx } from './store.js';
import { changes, entities, rows, type RowStamps } from './schema.js';
import { changeProblem } from './validate-change.js';

type RowState = { data: Record<string, unknown>; stamps: Record<string, string>; isFact: boolean; seq: number };

const rowKey = (table: string, rowId: string) => `${table}\u0000${rowId}`;
const same = (a: unknown, b: unknown) => stringify(a) === stringify(b);

/** Stamps as stored: one stamp when every column of the row carries it, else per column. */
export function storedStamps(data: Record<string, unknown>, stamps: Record<string, string>): RowStamps {
  const columns = Object.keys(data);
  const one = stamps[columns[0]];
  return one !== undefined && Object.keys(stamps).length === columns.length && columns.every((c) => stamps[c] === one) ? one : stamps;
}

/** Stamps per column, whichever way they were stored. */
export function stampsPerColumn(data: Record<string, unknown>, stamps: RowStamps): Record<string, string> {
  return typeof stamps === 'string' ? Object.fromEntries(Object.keys(data).map((c) => [c, stamps])) : stamps;
}

export async function pushChanges(h: HostedContext, auth: DeviceAuth, batch: Change[]): Promise<PushResponse> {
  if (auth.role === 'viewer') throw new ForbiddenError('A viewer cannot change data');
  refuseUnusable(h, batch);
  const results = await h.store.db.transaction((tx) => appendChanges(h, tx, auth, batch));
  return { serverTime: serverTime(h), results };
}

/**
 * Appends a batch to the entity's log inside `tx`: a device's push, or the hosted instance's own
 * writes (a signer signing on its public pages). Locks the entity's row first (see above).
 */
export async function appendChanges(h: HostedContext, tx: HostedTx, auth: Pick<DeviceAuth, 'entityId' | 'deviceId'>, batch: Change[]): Promise<PushResult[]> {
  const [entity] = await tx.select({ lastSeq: entities.lastSeq }).from(entities).where(eq(entities.id, auth.entityId)).for('update');
  invariant(entity, 'a device belongs to an existing entity');
  // Checked first: a value the store cannot hold must not reach even the lookups below.
  const problems = new Map(batch.map((c) => [c, changeProblem(c, auth.entityId, auth.deviceId === HOSTED_DEVICE_ID)]));
  const known = await knownChanges(tx, auth.entityId, batch);
  const current = await currentRows(tx, auth.entityId, batch.filter((c) => !problems.get(c)));
  let seq = entity.lastSeq;
  const logged: (typeof changes.$inferInsert)[] = [];
  const touched = new Set<string>();
  const out: PushResult[] = [];
  const accepted: Change[] = [];
  const receivedAt = serverTime(h);
  for (const unit of groupsOf(batch)) {
    // A group stands or falls together: its outcomes are worked out on a copy of the rows it touches.
    const draft = new Map<string, RowState | undefined>();
    const rowOf = (key: string) => (draft.has(key) ? draft.get(key) : current.get(key));
    const outcomes: ({ change: Change; duplicate: number } | { change: Change; row: Omit<RowState, 'seq'> } | { change: Change; reason: string })[] = [];
    for (const change of unit) {
      const earlier = known.get(change.id);
      if (earlier !== undefined) {
        outcomes.push({ change, duplicate: earlier });
        continue;
      }
      const problem = problems.get(change);
      if (problem) {
        outcomes.push({ change, reason: problem });
        continue;
      }
      const key = rowKey(change.table, change.rowId);
      const outcome = applyChange(rowOf(key), change);
      outcomes.push({ change, ...outcome });
      if ('row' in outcome) draft.set(key, { ...outcome.row, seq: 0 });
    }
    const refused = outcomes.find((o): o is { change: Change; reason: string } => 'reason' in o);
    for (const o of outcomes) {
      if ('duplicate' in o) out.push({ id: o.change.id, status: 'duplicate', seq: o.duplicate });
      else if (refused) out.push({ id: o.change.id, status: 'rejected', reason: o === refused ? o.reason : `Refused with its group: ${refused.reason}` });
      else if ('row' in o) {
        const { change } = o;
        const key = rowKey(change.table, change.rowId);
        seq += 1;
        current.set(key, { ...o.row, seq });
        touched.add(key);
        known.set(change.id, seq);
        logged.push({ entityId: auth.entityId, seq, id: change.id, deviceId: auth.deviceId, tableName: change.table, rowId: change.rowId, op: change.op, columns: change.columns, expect: change.expect ?? null, hlc: change.hlc, schemaVersion: change.schemaVersion, receivedAt });
        out.push({ id: change.id, status: 'accepted', seq });
        accepted.push(change);
      }
    }
  }
  invariant(seq === entity.lastSeq + logged.length, 'one seq per logged change');
  if (logged.length > 0) {
    // One JSON parameter per statement, whatever the batch size: PGlite's WebAssembly stack
    // aborts on statements with thousands of parameters (seen at 300 changes of 12 columns).
    await tx.execute(sql`
      insert into ${changes} (entity_id, seq, id, device_id, table_name, row_id, op, columns, expect, hlc, schema_version, received_at)
      select entity_id, seq, id, device_id, table_name, row_id, op, columns, expect, hlc, schema_version, received_at
      from jsonb_to_recordset(${JSON.stringify(logged.map((c) => ({ entity_id: c.entityId, seq: c.seq, id: c.id, device_id: c.deviceId, table_name: c.tableName, row_id: c.rowId, op: c.op, columns: c.columns, expect: c.expect, hlc: c.hlc, schema_version: c.schemaVersion, received_at: c.receivedAt })))}::jsonb)
        as x(entity_id uuid, seq bigint, id uuid, device_id uuid, table_name text, row_id text, op text, columns jsonb, expect jsonb, hlc text, schema_version int, received_at timestamptz)`);
    const upserts = [...touched].map((key) => {
      const [tableName, rowId] = key.split('\u0000');
      const r = current.get(key)!;
      return { entity_id: auth.entityId, table_name: tableName, row_id: rowId, data: r.data, stamps: storedStamps(r.data, r.stamps), is_fact: r.isFact, seq: r.seq };
    });
    await tx.execute(sql`
      insert into ${rows} (entity_id, table_name, row_id, data, stamps, is_fact, seq)
      select entity_id, table_name, row_id, data, stamps, is_fact, seq
      from jsonb_to_recordset(${JSON.stringify(upserts)}::jsonb) as x(entity_id uuid, table_name text, row_id text, data jsonb, stamps jsonb, is_fact boolean, seq bigint)
      on conflict (entity_id, table_name, row_id) do update set data = excluded.data, stamps = excluded.stamps, is_fact = excluded.is_fact, seq = excluded.seq`);
    await tx.update(entities).set({ lastSeq: seq }).where(eq(entities.id, auth.entityId));
    for (const react of h.reactions) await react(h, tx, auth.entityId, auth.deviceId, accepted);
  }
  return out;
}

/** The batch in units: each run of changes sharing a `group` is one unit, any other change its own. */
function groupsOf(batch: Change[]): Change[][] {
  const units: Change[][] = [];
  for (const change of batch) {
    const last = units.at(-1);
    if (change.group && last?.[0].group === change.group) last.push(change);
    else units.push([change]);
  }
  return units;
}

/** Whole-batch refusals: a device that must update first, or whose clock is too far ahead. */
function refuseUnusable(h: HostedContext, batch: Change[]) {
  if (batch.some((c) => c.schemaVersion < PROTOCOL_VERSION)) {
    throw new HttpError(426, `Update required: this instance accepts schema version ${PROTOCOL_VERSION} and later`);
  }
  const now = h.clock.now().getTime();
  const ahead = Math.max(...batch.map((c) => parseStamp(c.hlc)!.wallMs - now));
  if (ahead > MAX_DRIFT_MS) throw new ConflictError(`Clock skew: this device's clock is ${Math.round(ahead / 60_000)} minutes ahead of the server`, { serverTime: serverTime(h) });
}

async function knownChanges(tx: HostedTx, entityId: string, batch: Change[]): Promise<Map<string, number>> {
  if (batch.length === 0) return new Map();
  const ids = [...new Set(batch.map((c) => c.id))];
  const found = await tx
    .select({ id: changes.id, seq: changes.seq })
    .from(changes)
    .where(and(eq(changes.entityId, entityId), sql`${changes.id} = any(${`{${ids.join(',')}}`}::uuid[])`));
  return new Map(found.map((r) => [r.id, r.seq]));
}

async function currentRows(tx: HostedTx, entityId: string, batch: Change[]): Promise<Map<string, RowState>> {
  const map = new Map<string, RowState>();
  if (batch.length === 0) return map;
  const pairs = [...new Map(batch.map((c) => [rowKey(c.table, c.rowId), c])).values()];
  const found = await tx
    .select()
    .from(rows)
    .where(
      and(
        eq(rows.entityId, entityId),
        sql`(${rows.tableName}, ${rows.rowId}) in (select t, r from jsonb_to_recordset(${JSON.stringify(pairs.map((c) => ({ t: c.table, r: c.rowId })))}::jsonb) as x(t text, r text))`,
      ),
    );
  for (const r of found) map.set(rowKey(r.tableName, r.rowId), { data: r.data, stamps: stampsPerColumn(r.data, r.stamps), isFact: r.isFact, seq: r.seq });
  return map;
}

/**
 * The row after `change`, or why it is refused. Deterministic: every replica that applies the
 * log in seq order with this function reaches the same row.
 */
export function applyChange(row: RowState | undefined, change: Change): { row: Omit<RowState, 'seq'> } | { reason: string } {
  if (change.op === 'fact') {
    if (!row) return { row: { data: { ...change.columns }, stamps: Object.fromEntries(Object.keys(change.columns).map((c) => [c, change.hlc])), isFact: true } };
    // The same fact from two devices merges into one; a different one under the same id is refused.
    return row.isFact && same(row.data, change.columns) ? { row } : { reason: 'A different record already exists under this id' };
  }
  if (row?.isFact) return { reason: 'This record is written once and cannot change' };
  if (change.op === 'transition') {
    if (!change.expect) {
      // Creates a guarded row once: a second creation under the same id (the same idempotency key used on two devices) loses.
      if (row && !row.data._deleted) return { reason: 'Created elsewhere first: a record with this id exists already' };
      return { row: { data: { ...change.columns }, stamps: Object.fromEntries(Object.keys(change.columns).map((c) => [c, change.hlc])), isFact: false } };
    }
    if (!row) return { reason: 'The record does not exist' };
    for (const [column, expected] of Object.entries(change.expect ?? {})) {
      if (!same(row.data[column] ?? null, expected)) return { reason: `Changed elsewhere first: ${column} is no longer ${stringify(expected)}` };
    }
    // An accepted transition wins in log order, and keeps the newest stamp so later LWW writes still compare correctly.
    const data = { ...row.data, ...change.columns };
    const stamps = { ...row.stamps };
    for (const column of Object.keys(change.columns)) stamps[column] = !stamps[column] || change.hlc > stamps[column] ? change.hlc : stamps[column];
    return { row: { data, stamps, isFact: false } };
  }
  // upsert: last writer wins, per column, by HLC stamp.
  const data = { ...(row?.data ?? {}) };
  const stamps = { ...(row?.stamps ?? {}) };
  for (const [column, value] of Object.entries(change.columns)) {
    if (!stamps[column] || change.hlc > stamps[column]) {
      data[column] = value;
      stamps[column] = change.hlc;
    }
  }
  return { row: { data, stamps, isFact: false } };
}
