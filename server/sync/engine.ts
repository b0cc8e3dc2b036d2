// The device's sync engine: capture state, the push queue, pulling and applying, one cycle per
// linked entity with jittered backoff (1 s → 5 min, honouring Retry-After).
import { applyPeople, PEOPLE_TABLE, personIdOf } from '../auth/index.js';
import { leaveRemovedEntity } from './leave.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Module } from '../kernel/module.js';
import { createApplier } from './apply.js';
import { installCapture, rowIdSql, rowJson } from './capture.js';
import { callHosted, HostedError } from './hosted-client.js';
import { ClockSkewError } from './hlc.js';
import { blobsOf, schemaTables, syncedTables, type SyncedTable, type TablePolicies } from '../kernel/sync-policy.js';
import { changeSchema, hostedInfo, type LoggedChange, HOSTED_DEVICE_ID, REMOVED_MEMBER_MESSAGE, MAX_PUSH_BYTES, MAX_PUSH_CHANGES, PROTOCOL_VERSION, pullPage, pushResponse, type Change } from './protocol.js';
import { syncChanges, syncLinks, syncNode } from './tables.js';
import { invariant } from './invariant.js';
import { deviceToken, engineOf, linkOf, refreshLinked, setEngine, writable, type LinkRow, type SyncEngine } from './engine-state.js';
import { undoRefusedGroups, groupWrites } from './groups.js';
import { syncFromSnapshot } from './snapshot.js';
import { fetchMissingBlob } from './blob-fetch.js';
import { createReadOnlyGuard } from './read-only.js';
import { waitingChanges } from './waiting.js';
import { hostedNow, noteServerTime } from './clock.js';
import { backoffMs } from '../backoff.js';

/** What sync hears of the other modules' changes (their `Module` hooks). */
export type SyncHooks = Pick<Module, 'name' | 'onHostedChanges' | 'onApplied' | 'onPulledChanges' | 'onLinking' | 'beforePush'>;

/**
 * What the app hands the sync engine: every table's policy and the modules' hooks. Sync does not
 * import the composition root (`modules.ts`), which imports sync.
 */
export interface SyncApp {
  policies(): TablePolicies;
  hooks(): readonly SyncHooks[];
}

// Its state is in its own file, which the files the engine calls import; read here by other modules.
export { engineOf, linkOf, reloadSyncState, type LinkRow } from './engine-state.js';

/** Parents before children, so a new device can insert rows in log order (foreign keys). */
function parentsFirst(tables: SyncedTable[]): SyncedTable[] {
  const all = schemaTables();
  const parents = new Map(tables.map((t) => [t.name, getTableConfig(all.get(t.name)!).foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name)]));
  const out: SyncedTable[] = [];
  const visit = (t: SyncedTable, seen: Set<string>) => {
    if (out.includes(t) || seen.has(t.name)) return;
    seen.add(t.name);
    for (const p of parents.get(t.name) ?? []) {
      const parent = tables.find((x) => x.name === p);
      if (parent) visit(parent, seen);
    }
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

export function startSyncEngine(ctx: Context, app: SyncApp): SyncEngine {
  const tables = parentsFirst(syncedTables(app.policies()));
  let node = ctx.db.select().from(syncNode).where(eq(syncNode.id, 1)).get()?.node;
  if (!node) {
    node = crypto.randomBytes(10).toString('hex');
    ctx.db.insert(syncNode).values({ id: 1, node }).onConflictDoNothing().run();
    node = ctx.db.select().from(syncNode).where(eq(syncNode.id, 1)).get()!.node;
  }
  const links = ctx.db.select({ entityId: syncLinks.entityId, status: syncLinks.lastErrorStatus, offset: syncLinks.serverTimeOffsetMs }).from(syncLinks).all();
  const engine = {
    app,
    tables,
    backoff: new Map(),
    running: new Map(),
    progress: new Map(),
    listeners: new Map(),
    readOnly: new Set(links.filter((l) => l.status === 426).map((l) => l.entityId)),
    // Measured again at the first answer: an offset from before a restart cannot be trusted to still hold.
    clockOffsetMs: 0,
    clockMeasuredAt: null,
    infoChecked: new Set(),
  } as Omit<SyncEngine, 'capture' | 'applier' | 'guard'> as SyncEngine;
  engine.capture = installCapture(ctx.sqlite, tables, node, () => hostedNow(ctx, engine));
  engine.applier = createApplier(ctx.sqlite, tables);
  groupWrites(ctx, engine.capture);
  engine.guard = createReadOnlyGuard(ctx.sqlite, tables);
  engine.guard.set(engine.readOnly);
  setEngine(ctx, engine);
  refreshLinked(ctx);
  return engine;
}

/**
 * Queues every row the entity has in synced tables (as of now, parents first): linking pushes
 * everything. Call inside the transaction that creates the link.
 */
export function enqueueSnapshot(ctx: Context, entityId: string): number {
  const { tables, capture } = engineOf(ctx);
  const insert = ctx.sqlite.prepare(
    'INSERT INTO sync_changes (change_id, entity_id, table_name, row_id, op, columns, hlc, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const stamp = ctx.sqlite.prepare(
    'INSERT INTO sync_stamps (table_name, row_id, "column", hlc) SELECT ?, ?, key, ? FROM json_each(?) WHERE true ON CONFLICT (table_name, row_id, "column") DO UPDATE SET hlc = excluded.hlc',
  );
  let n = 0;
  const now = nowIso(ctx);
  for (const table of tables) {
    if (table.hostedOnly) continue;
    const rows = ctx.sqlite
      .prepare<[string], { row_id: string; columns: string }>(
        `SELECT ${rowIdSql(table, 'NEW')} AS row_id, ${rowJson(table, 'NEW')} AS columns FROM "${table.name}" AS NEW WHERE entity_id = ? ORDER BY rowid`,
      )
      .all(entityId);
    for (const row of rows) {
      const hlc = capture.stamp();
      insert.run(crypto.randomUUID(), entityId, table.name, row.row_id, table.kind === 'fact' ? 'fact' : 'upsert', row.columns, hlc, now);
      stamp.run(table.name, row.row_id, hlc, row.columns);
      n += 1;
    }
  }
  return n;
}

/** Pushes the queue in batches (≤500 changes, ≤1 MB), uploading the blobs rows name first. */
async function pushQueue(ctx: Context, link: LinkRow, token: string): Promise<void> {
  const progress = { phase: 'push' as const, done: 0, total: waitingChanges(ctx, link.entityId) };
  if (progress.total > 0) engineOf(ctx).progress.set(link.entityId, progress);
  for (;;) {
    const queued = ctx.db
      .select()
      .from(syncChanges)
      .where(and(eq(syncChanges.entityId, link.entityId), isNull(syncChanges.result)))
      .orderBy(asc(syncChanges.localSeq))
      .limit(MAX_PUSH_CHANGES)
      .all();
    if (queued.length === 0) return;
    const batch: Change[] = [];
    let bytes = 64;
    for (const row of queued) {
      const candidate = { id: row.changeId, table: row.tableName, rowId: row.rowId, op: row.op, columns: JSON.parse(row.columns), ...(row.expect ? { expect: JSON.parse(row.expect) } : {}), hlc: row.hlc, schemaVersion: PROTOCOL_VERSION, ...(row.groupId ? { group: row.groupId } : {}) };
      const valid = changeSchema.safeParse(candidate);
      if (!valid.success) {
        // One change the hosted instance would refuse must not hold back the ones after it.
        ctx.db.update(syncChanges).set({ result: 'rejected', reason: `Not sendable: ${valid.error.issues[0]?.message ?? 'invalid'}`, answeredAt: nowIso(ctx) }).where(eq(syncChanges.localSeq, row.localSeq)).run();
        continue;
      }
      const change: Change = valid.data;
      const size = Buffer.byteLength(JSON.stringify(change)) + 1;
      if (batch.length > 0 && bytes + size > MAX_PUSH_BYTES - 1024) break;
      bytes += size;
      batch.push(change);
    }
    if (batch.length === 0) continue;
    keepGroupsWhole(batch, queued.length === MAX_PUSH_CHANGES || batch.length < queued.length);
    for (const change of batch) await uploadBlobOf(ctx, link, token, change);
    const answer = await callHosted(link.hostedUrl, 'POST', '/sync/v1/push', { token, body: { changes: batch }, schema: pushResponse });
    const answeredAt = nowIso(ctx);
    write(ctx, (tx) => {
      for (const r of answer.results) {
        // Accepted changes are in the hosted log now: the queue forgets them. Rejections stay, to be shown.
        if (r.status === 'rejected') tx.update(syncChanges).set({ result: 'rejected', reason: r.reason, answeredAt }).where(eq(syncChanges.changeId, r.id)).run();
        else tx.delete(syncChanges).where(eq(syncChanges.changeId, r.id)).run();
      }
    });
    noteServerTime(ctx, engineOf(ctx), link.entityId, answer.serverTime);
    writable(engineOf(ctx), link.entityId);
    progress.done += batch.length;
    progress.total = Math.max(progress.total, progress.done);
    invariant(answer.results.length === batch.length, 'one answer per pushed change');
    // A refused group with a guarded transition lost a race: it is undone, not left for the user to retry.
    const refused = new Set(answer.results.filter((r) => r.status === 'rejected').map((r) => r.id));
    const lost = [...new Set(batch.filter((c) => c.group && refused.has(c.id)).map((c) => c.group!))].filter((g) => batch.some((c) => c.group === g && c.op === 'transition'));
    const engine = engineOf(ctx);
    undoRefusedGroups(ctx, engine.capture, engine.tables, link.entityId, lost);
  }
}

/**
 * Cuts a batch that may end inside a group back to the group's start, so the group travels in
 * the next push whole (a group larger than one push travels split, as plain changes).
 */
function keepGroupsWhole(batch: Change[], cutShort: boolean): void {
  const last = batch.at(-1)?.group;
  if (!cutShort || !last) return;
  const start = batch.findIndex((c) => c.group === last);
  if (start > 0) batch.splice(start);
}

/** Rows name their files by sha256 (a document's PDF, a sealed PDF): the hosted instance gets the file before the row. */
async function uploadBlobOf(ctx: Context, link: LinkRow, token: string, change: Change): Promise<void> {
  for (const sha of blobsOf(engineOf(ctx).tables, change)) {
    if (!ctx.blobs.has(sha)) continue;
    const present = await callHosted(link.hostedUrl, 'HEAD', `/sync/v1/blobs/${sha}`, { token });
    // Sent as it is read from the file: never whole in memory.
    if (!present) await callHosted(link.hostedUrl, 'PUT', `/sync/v1/blobs/${sha}`, { token, raw: fs.createReadStream(ctx.blobs.pathOf(sha)), timeoutMs: 120_000 });
  }
}

/**
 * Pulls the log after the cursor and applies it; the cursor advances in the same transaction.
 * A device that has not taken its snapshot yet (a new link or join, or one whose cursor the log no
 * longer covers) takes a snapshot of the entity's rows first instead of replaying the whole log.
 */
async function pullLog(ctx: Context, link: LinkRow, token: string): Promise<void> {
  const engine = engineOf(ctx);
  const progress = { phase: 'pull' as 'pull' | 'snapshot', done: 0, total: 0 };
  engine.progress.set(link.entityId, progress);
  const snapshot = async () => {
    progress.phase = 'snapshot';
    const seq = await syncFromSnapshot(ctx, link, token, (done, total) => Object.assign(progress, { done, total }));
    Object.assign(progress, { phase: 'pull', done: 0, total: 0 });
    return seq;
  };
  // Whether to start from a snapshot is its own flag: a cursor of 0 is also where a device stands
  // for good when the entity's hosted log is empty (linked before it had data).
  let cursor = link.needsSnapshot ? await snapshot() : link.cursor;
  const start = cursor;
  let refetched = false;
  for (;;) {
    const page = await callHosted(link.hostedUrl, 'GET', `/sync/v1/pull?cursor=${cursor}`, { token, schema: pullPage });
    noteServerTime(ctx, engine, link.entityId, page.serverTime);
    writable(engine, link.entityId);
    if (page.mustRefetch) {
      // Once per cycle: a hosted instance that keeps saying so is failing, and the backoff applies.
      if (refetched) throw new HostedError(502, 'The hosted instance asks for a new snapshot again and again');
      refetched = true;
      cursor = await snapshot();
      continue;
    }
    for (const change of page.changes) if (change.deviceId !== link.deviceId) for (const sha of blobsOf(engine.tables, change)) await fetchMissingBlob(ctx, link, token, sha);
    for (const change of page.changes) engine.capture.observe(change.hlc);
    const outcome = write(ctx, (tx) => {
      const applied = engine.capture.withoutCapture(() => {
        ctx.sqlite.pragma('defer_foreign_keys = ON');
        return engine.applier.apply(link.entityId, page.changes);
      });
      // People rows just applied: users and memberships follow (names, roles, removals).
      const people = page.changes.filter((c) => c.table === PEOPLE_TABLE).map((c) => personIdOf(c.rowId));
      if (people.length > 0) applyPeople(ctx, tx, link.entityId, people.filter((id): id is string => id !== null));
      const fromHosted = page.changes.filter((c) => c.deviceId === HOSTED_DEVICE_ID);
      if (fromHosted.length > 0) for (const m of engine.app.hooks()) m.onHostedChanges?.(ctx, tx, link.entityId, fromHosted);
      const fromOthers = page.changes.filter((c) => c.deviceId !== link.deviceId);
      if (fromOthers.length > 0) for (const m of engine.app.hooks()) m.onPulledChanges?.(ctx, tx, link.entityId, fromOthers);
      tx.update(syncLinks).set({ cursor: page.cursor }).where(eq(syncLinks.entityId, link.entityId)).run();
      return applied;
    });
    for (const s of outcome.skipped) ctx.log.warn({ entityId: link.entityId, changeId: s.id, reason: s.reason }, 'sync: change not applied');
    announceApplied(ctx, link, page.changes);
    cursor = page.cursor;
    Object.assign(progress, { done: cursor - start, total: Math.max(cursor, page.head ?? cursor) - start });
    if (!page.hasMore) return;
  }
}

/** Tells the modules what other devices changed here, after the commit (a broken listener stops nothing). */
function announceApplied(ctx: Context, link: LinkRow, changes: LoggedChange[]): void {
  const others = changes.filter((c) => c.deviceId !== link.deviceId);
  if (others.length === 0) return;
  for (const m of engineOf(ctx).app.hooks()) {
    try {
      m.onApplied?.(ctx, link.entityId, others);
    } catch (err) {
      ctx.log.warn({ err, module: m.name }, 'sync: announcing applied changes failed');
    }
  }
}

/**
 * Where the hosted instance serves public pages (signing links) can change (an operator adds
 * `--public-url`): asked once per start of this device, so new signing links follow it.
 */
async function refreshPublicUrl(ctx: Context, engine: SyncEngine, link: LinkRow): Promise<void> {
  if (engine.infoChecked.has(link.entityId)) return;
  const info = await callHosted(link.hostedUrl, 'GET', '/sync/v1/info', { schema: hostedInfo });
  engine.infoChecked.add(link.entityId);
  const publicUrl = info.publicUrl ?? null;
  if (publicUrl !== link.publicUrl) ctx.db.update(syncLinks).set({ publicUrl }).where(eq(syncLinks.entityId, link.entityId)).run();
}

/** One sync cycle for an entity: push the queue, then pull. Failures are recorded on the link. */
export function runCycle(ctx: Context, entityId: string): Promise<void> {
  const engine = engineOf(ctx);
  const running = engine.running.get(entityId);
  if (running) return running;
  if ((engine.backoff.get(entityId)?.retryAfterUntil ?? 0) > Date.now()) return Promise.resolve();
  const cycle = (async () => {
    const link = linkOf(ctx, entityId);
    if (!link) return;
    try {
      const token = deviceToken(ctx, link);
      await refreshPublicUrl(ctx, engine, link);
      for (const m of engine.app.hooks()) await m.beforePush?.(ctx, entityId, { url: link.hostedUrl, token });
      await pushQueue(ctx, link, token);
      await pullLog(ctx, linkOf(ctx, entityId)!, token);
      ctx.db.update(syncLinks).set({ lastSyncAt: nowIso(ctx), lastError: null, lastErrorStatus: null }).where(eq(syncLinks.entityId, entityId)).run();
      engine.backoff.delete(entityId);
    } catch (err) {
      // A stamp from elsewhere too far ahead of this clock is clock skew as much as the hosted instance's 409 is.
      const status = err instanceof HostedError ? err.status : err instanceof ClockSkewError ? 409 : -1;
      const message = err instanceof Error ? err.message : String(err);
      // A refusal for clock skew says what time it is there: the next stamps are made in that time.
      if (err instanceof HostedError && err.serverTime) noteServerTime(ctx, engine, entityId, err.serverTime);
      if (status === -1) ctx.log.error({ err, entityId }, 'sync cycle failed');
      ctx.db.update(syncLinks).set({ lastError: message, lastErrorStatus: status }).where(eq(syncLinks.entityId, entityId)).run();
      // This person was removed from the entity: this device lets it go (see leaveRemovedEntity).
      if (status === 401 && message === REMOVED_MEMBER_MESSAGE) leaveRemovedEntity(ctx, entityId);
      // The hosted instance needs a newer Bureau: writes to this entity's synced data stop here until then.
      if (status === 426 && !engine.readOnly.has(entityId)) engine.guard.set(engine.readOnly.add(entityId));
      const failures = (engine.backoff.get(entityId)?.failures ?? 0) + 1;
      const retryAfterMs = err instanceof HostedError && err.retryAfterSeconds ? err.retryAfterSeconds * 1000 : 0;
      const delay = Math.max(retryAfterMs, backoffMs(failures, { baseMs: 1000, maxMs: 300_000, jitter: [0.5, 1] }));
      engine.backoff.set(entityId, { failures, nextAt: Date.now() + delay, ...(retryAfterMs > 0 ? { retryAfterUntil: Date.now() + retryAfterMs } : {}) });
    }
  })().finally(() => {
    engine.running.delete(entityId);
    engine.progress.delete(entityId);
  });
  engine.running.set(entityId, cycle);
  return cycle;
}
