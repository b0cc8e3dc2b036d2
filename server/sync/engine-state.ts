// The sync engine's state per context and the small reads over it (the link row, its token):
// its own file so the files the engine calls (snapshot, leave) reach it without importing the engine.
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { createApplier } from './apply.js';
import type { Capture } from './capture.js';
import type { ClockState } from './clock.js';
import { invariant } from './invariant.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
// Types only: what the app hands the engine is declared with the engine.
import type { SyncApp } from './engine.js';
import type { createReadOnlyGuard } from './read-only.js';
import { syncLinks } from './tables.js';

export type LinkRow = typeof syncLinks.$inferSelect;

export interface SyncEngine {
  app: SyncApp;
  capture: Capture;
  tables: SyncedTable[];
  applier: ReturnType<typeof createApplier>;
  /**
   * Per entity: when the next automatic cycle may run, and how many failed in a row;
   * `retryAfterUntil` when the hosted instance said not before then (429/503 Retry-After) — no
   * cycle calls it earlier, not even one asked for by hand.
   */
  backoff: Map<string, { failures: number; nextAt: number; retryAfterUntil?: number }>;
  /** Cycles in progress, so two never run at once for one entity. */
  running: Map<string, Promise<void>>;
  /** What a running cycle has done of what it found to do ("syncing n of m"). */
  progress: Map<string, { phase: 'push' | 'pull' | 'snapshot'; done: number; total: number }>;
  /** Long-polls waiting for other devices' changes, one per linked entity (see live.ts). */
  listeners: Map<string, Promise<void>>;
  /** Entities whose hosted instance needs a newer Bureau: their synced data is read-only here. */
  readOnly: Set<string>;
  /** Refuses writes to the read-only entities' synced tables (call `set` when `readOnly` changes). */
  guard: ReturnType<typeof createReadOnlyGuard>;
  /**
   * How far the hosted instance's clock is ahead of this one (ms), from the last answer: stamps
   * are made and compared in hosted time, so a wrong clock here neither loses every conflict nor
   * refuses other devices' changes as "from the future".
   */
  clockOffsetMs: number;
  clockMeasuredAt: ClockState['clockMeasuredAt'];
  /** Entities whose hosted instance was asked for its public address since this start (see `refreshPublicUrl`). */
  infoChecked: Set<string>;
}

const engines = new WeakMap<Context, SyncEngine>();

/** The engine of a context, once the sync module started it. */
export function setEngine(ctx: Context, engine: SyncEngine): void {
  engines.set(ctx, engine);
}

export function engineOf(ctx: Context): SyncEngine {
  const engine = engines.get(ctx);
  invariant(engine, 'the sync module has started');
  return engine;
}

export function refreshLinked(ctx: Context): void {
  const links = ctx.db.select({ entityId: syncLinks.entityId, deviceId: syncLinks.deviceId }).from(syncLinks).all();
  engines.get(ctx)?.capture.setLinked(links.map((r) => r.entityId));
  // Events of linked entities travel as facts (entity_events), named by this device.
  ctx.events.setLinked(new Map(links.map((r) => [r.entityId, r.deviceId])));
}

/**
 * After the database's rows were replaced in place (Restore from a backup on a fresh install):
 * the links and read-only entities are read again, as a start would.
 */
export function reloadSyncState(ctx: Context): void {
  const engine = engines.get(ctx);
  if (!engine) return;
  refreshLinked(ctx);
  const links = ctx.db.select({ entityId: syncLinks.entityId, status: syncLinks.lastErrorStatus }).from(syncLinks).all();
  engine.readOnly = new Set(links.filter((l) => l.status === 426).map((l) => l.entityId));
  engine.guard.set(engine.readOnly);
  engine.backoff.clear();
  engine.infoChecked.clear();
}

export function linkOf(ctx: Context, entityId: string): LinkRow | undefined {
  return ctx.db.select().from(syncLinks).where(eq(syncLinks.entityId, entityId)).get();
}

export function deviceToken(ctx: Context, link: LinkRow): string {
  return ctx.secrets.open(link.deviceTokenSealed).toString('utf8');
}

/**
 * The hosted instance answered without asking for a newer version: the entity is writable again
 * (before anything pulled is applied, which the read-only guard would refuse too).
 */
export function writable(engine: SyncEngine, entityId: string): void {
  if (engine.readOnly.delete(entityId)) engine.guard.set(engine.readOnly);
}
