// Which deliveries this instance owes: queued inside every append to an entity's log (a device's
// push or this instance's own changes), in the same transaction, so an event accepted here is
// never without its jobs and a repeated push queues nothing twice (the job id is the delivery's).
import { and, eq, sql } from 'drizzle-orm';
import { HOSTED_DEVICE_ID, type Change } from '../sync/protocol.js';
import { CATCH_UP_MS, deliveryIdOf, isOlder, matches, webhookPayload, HOSTED_DELIVERER } from '../webhooks/index.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { mirroredRow, notDeleted, type RowData } from './mirror.js';
import { rows, webhookJobs } from './schema.js';
import type { HostedTx } from './store.js';

interface HostedSub {
  id: string;
  events: string[];
  createdAt: string;
}
interface EventRow {
  id: string;
  type: string;
  data: string;
  createdAt: string;
}

const isTrue = (v: unknown) => v === 1 || v === true;
const parseEvents = (v: unknown): string[] => {
  try {
    const list = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return []; // a tenant's unreadable row: nothing matches it
  }
};

/** The entity's enabled subscriptions this instance delivers. */
async function hostedSubscriptions(tx: HostedTx, entityId: string): Promise<HostedSub[]> {
  const found = await tx
    .select({ data: rows.data })
    .from(rows)
    .where(and(eq(rows.entityId, entityId), sql`${rows.tableName} = 'webhook_subscriptions'`, sql`(${rows.data} ->> 'delivered_by') = ${HOSTED_DELIVERER}`, notDeleted));
  return found.map((r) => r.data).filter((d) => isTrue(d.enabled)).map((d) => ({ id: String(d.id), events: parseEvents(d.events), createdAt: String(d.created_at) }));
}

const eventOf = (d: RowData): EventRow | null =>
  typeof d.id === 'string' && typeof d.type === 'string' && typeof d.data === 'string' && typeof d.created_at === 'string' ? { id: d.id, type: d.type, data: d.data, createdAt: d.created_at } : null;

async function queueJob(h: HostedContext, tx: HostedTx, entityId: string, sub: HostedSub, e: EventRow): Promise<boolean> {
  if (!matches(sub.events, e.type) || isOlder(e, sub)) return false;
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(e.data) as Record<string, unknown>;
  } catch {
    return false;
  }
  const now = serverTime(h);
  const queued = await tx
    .insert(webhookJobs)
    .values({ id: deliveryIdOf(sub.id, e.id), entityId, subscriptionId: sub.id, eventId: e.id, eventType: e.type, payload: webhookPayload({ type: e.type, createdAt: e.createdAt, data }), status: 'pending', nextAttemptAt: now, createdAt: e.createdAt, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: webhookJobs.id });
  return queued.length > 0;
}

/**
 * Called inside every append with the changes just accepted: events become jobs for this
 * instance's subscriptions; a subscription handed to this instance catches up on recent events;
 * a device asking for a delivery again (a manual retry or a test event, as a pending row) gets it.
 * Returns whether anything was queued (the worker is woken after the commit).
 */
export async function queueWebhookJobs(h: HostedContext, tx: HostedTx, entityId: string, deviceId: string, accepted: Change[]): Promise<boolean> {
  const events = accepted.filter((c) => c.table === 'entity_events' && c.op === 'fact');
  const handedOver = new Set(accepted.filter((c) => c.table === 'webhook_subscriptions' && ('delivered_by' in c.columns || 'created_at' in c.columns)).map((c) => c.rowId));
  const asked = deviceId === HOSTED_DEVICE_ID ? [] : accepted.filter((c) => c.table === 'webhook_deliveries' && c.columns.status === 'pending' && typeof c.columns.next_attempt_at === 'string');
  if (events.length === 0 && handedOver.size === 0 && asked.length === 0) return false;
  const subs = await hostedSubscriptions(tx, entityId);
  if (subs.length === 0) return false;
  let queued = false;
  for (const c of events) {
    const e = eventOf(c.columns);
    if (e) for (const sub of subs) queued = (await queueJob(h, tx, entityId, sub, e)) || queued;
  }
  for (const sub of subs.filter((s) => handedOver.has(s.id))) {
    const since = new Date(Math.max(Date.parse(sub.createdAt) || 0, h.clock.now().getTime() - CATCH_UP_MS)).toISOString();
    const recent = await tx
      .select({ data: rows.data })
      .from(rows)
      .where(and(eq(rows.entityId, entityId), sql`${rows.tableName} = 'entity_events'`, sql`(${rows.data} ->> 'created_at') >= ${since}`));
    for (const r of recent) {
      const e = eventOf(r.data);
      if (e) queued = (await queueJob(h, tx, entityId, sub, e)) || queued;
    }
  }
  for (const c of asked) queued = (await queueAskedDelivery(h, tx, entityId, subs, c.rowId)) || queued;
  return queued;
}

/** A delivery a device set pending again (its row as it stands now): one more attempt from here, due when it says. */
async function queueAskedDelivery(h: HostedContext, tx: HostedTx, entityId: string, subs: HostedSub[], deliveryId: string): Promise<boolean> {
  const d = await mirroredRow(tx, entityId, 'webhook_deliveries', deliveryId);
  if (!d || d.status !== 'pending' || !subs.some((s) => s.id === d.subscription_id) || typeof d.payload !== 'string') return false;
  const now = serverTime(h);
  const autoAttempts = Number(d.auto_attempts) || 0;
  await tx
    .insert(webhookJobs)
    .values({ id: deliveryId, entityId, subscriptionId: String(d.subscription_id), eventId: String(d.event_id), eventType: String(d.event_type), payload: d.payload, status: 'pending', attemptCount: Number(d.attempt_count) || 0, autoAttempts, nextAttemptAt: now, createdAt: String(d.created_at), updatedAt: now })
    .onConflictDoUpdate({ target: webhookJobs.id, set: { status: 'pending', nextAttemptAt: now, autoAttempts, lastError: null, updatedAt: now } });
  return true;
}
