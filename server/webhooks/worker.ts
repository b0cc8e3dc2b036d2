import { and, asc, eq, lte } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from './tables.js';
import { allowsLocalTargets } from './settings.js';
import { secretOf } from './secrets.js';
import { deliverersHere } from './deliverer.js';
import { DELIVERY_TIMEOUT_MS, sendWebhook, type SendResult } from './send.js';
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './schedule.js';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type Trigger = 'automatic' | 'manual';

const BATCH = 50;
const PARALLEL_ENDPOINTS = 4;
/** While an attempt is in flight its delivery is leased; after a crash it is retried (same webhook-id). */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 45_000;
const SECRET_WAIT_MS = 30_000;

const isSuccess = (r: SendResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
const later = (ctx: Context, ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

/** Delivery passes and manual retries of one server run one at a time: no attempt is made twice. */
const queues = new WeakMap<Context, Promise<unknown>>();
export function serialized<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const next = (queues.get(ctx) ?? Promise.resolve()).then(work, work);
  queues.set(ctx, next.catch(() => undefined));
  return next;
}

/**
 * Makes one HTTP attempt for a delivery and records it. Returns false when the server began closing
 * first: nothing is recorded and the delivery is due again at once on the next start.
 */
export async function attemptDelivery(ctx: Context, delivery: DeliveryRow, sub: SubscriptionRow, trigger: Trigger): Promise<boolean> {
  const startedAt = ctx.clock.now();
  const secret = secretOf(ctx, sub);
  if (secret === null) {
    // Made or rotated on another device and not fetched from the hosted instance yet: waits for the next sync.
    ctx.db.update(webhookDeliveries).set({ nextAttemptAt: later(ctx, SECRET_WAIT_MS), lastError: 'Waiting for the signing secret to reach this device' }).where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending'))).run();
    return true;
  }
  const signature = new Webhook(secret).sign(delivery.eventId, startedAt, delivery.payload);
  const result = await sendWebhook({
    url: sub.url,
    body: delivery.payload,
    allowLocal: allowsLocalTargets(ctx, sub.entityId),
    headers: { 'webhook-id': delivery.eventId, 'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)), 'webhook-signature': signature },
    signal: ctx.loops.signal,
  });
  if (result.aborted) {
    releaseLease(ctx, delivery);
    return false;
  }
  recordAttempt(ctx, delivery, sub, trigger, startedAt.toISOString(), result);
  return true;
}

/** Puts a leased delivery back on its schedule (as read before the lease), untouched otherwise. */
function releaseLease(ctx: Context, delivery: DeliveryRow): void {
  ctx.db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: delivery.nextAttemptAt })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
    .run();
}

function recordAttempt(ctx: Context, delivery: DeliveryRow, sub: SubscriptionRow, trigger: Trigger, startedAt: string, result: SendResult) {
  const ok = isSuccess(result);
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    // The subscription (and with it the delivery) may have been deleted while the request was out.
    if (!tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)).get()) return;
    const attempt = delivery.attemptCount + 1;
    tx.insert(webhookAttempts)
      .values({ id: ctx.ids.next(), entityId: delivery.entityId, deliveryId: delivery.id, attempt, trigger, startedAt, durationMs: result.durationMs, statusCode: result.statusCode, success: ok, error: result.error, responseExcerpt: result.responseExcerpt })
      .run();
    const autoAttempts = delivery.autoAttempts + (trigger === 'automatic' ? 1 : 0);
    const next = nextState(ctx, delivery, trigger, autoAttempts, ok, result);
    tx.update(webhookDeliveries)
      .set({ ...next, attemptCount: attempt, autoAttempts, lastAttemptAt: startedAt, lastStatusCode: result.statusCode, lastError: ok ? null : (result.error ?? `HTTP ${result.statusCode}`), updatedAt: now })
      .where(eq(webhookDeliveries.id, delivery.id))
      .run();
    updateEndpointHealth(ctx, tx, sub, ok, result, startedAt, now);
  });
}

function nextState(ctx: Context, d: DeliveryRow, trigger: Trigger, autoAttempts: number, ok: boolean, result: SendResult): Pick<DeliveryRow, 'status' | 'nextAttemptAt'> {
  if (ok) return { status: 'succeeded', nextAttemptAt: null };
  // A manual attempt that fails leaves a scheduled delivery on its schedule; one without a
  // schedule (finished, or a test event) ends failed.
  if (trigger === 'manual') return d.status === 'pending' && d.nextAttemptAt !== null ? { status: 'pending', nextAttemptAt: d.nextAttemptAt } : { status: 'failed', nextAttemptAt: null };
  if (result.statusCode === 410) return { status: 'failed', nextAttemptAt: null };
  const delay = retryDelayMs(autoAttempts);
  if (delay === null || autoAttempts >= MAX_ATTEMPTS) return { status: 'failed', nextAttemptAt: null };
  const retryAfter = parseRetryAfter(result.retryAfter, ctx.clock.now());
  return { status: 'pending', nextAttemptAt: later(ctx, Math.max(delay, retryAfter ?? 0)) };
}

/** Success clears the failure streak; 410 Gone, or failing for 5 days, disables the endpoint. */
function updateEndpointHealth(ctx: Context, tx: Tx, sub: SubscriptionRow, ok: boolean, result: SendResult, startedAt: string, now: string) {
  const current = tx.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, sub.id)).get();
  if (!current) return;
  if (ok) {
    if (current.failingSince) tx.update(webhookSubscriptions).set({ failingSince: null }).where(eq(webhookSubscriptions.id, sub.id)).run();
    return;
  }
  const failingSince = current.failingSince ?? startedAt;
  if (!current.failingSince) tx.update(webhookSubscriptions).set({ failingSince }).where(eq(webhookSubscriptions.id, sub.id)).run();
  if (!current.enabled) return;
  let reason: string | null = null;
  if (result.statusCode === 410) reason = 'The endpoint answered 410 Gone';
  else if (ctx.clock.now().getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS) reason = `Every attempt has failed since ${failingSince} (5 days)`;
  if (reason) disableEndpoint(ctx, tx, current, reason, now);
}

/** Disables an endpoint, fails its queued deliveries (retryable by hand) and tells the admins. */
function disableEndpoint(ctx: Context, tx: Tx, sub: SubscriptionRow, reason: string, now: string) {
  tx.update(webhookSubscriptions).set({ enabled: false, disabledReason: reason, disabledAt: now, updatedAt: now }).where(eq(webhookSubscriptions.id, sub.id)).run();
  tx.update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastError: `Endpoint disabled: ${reason}`, updatedAt: now })
    .where(and(eq(webhookDeliveries.subscriptionId, sub.id), eq(webhookDeliveries.status, 'pending')))
    .run();
  ctx.events.record(tx, { entityId: sub.entityId, type: 'webhook.endpoint_disabled', data: { subscription: { id: sub.id, url: sub.url }, reason } });
  ctx.log.warn({ subscriptionId: sub.id, entityId: sub.entityId, reason }, 'webhook endpoint disabled');
}

/** Takes the due deliveries of enabled endpoints, leases them, and attempts each. */
async function deliverDueOnce(ctx: Context): Promise<number> {
  const now = nowIso(ctx);
  const due = ctx.db
    .select({ d: webhookDeliveries, s: webhookSubscriptions })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now), eq(webhookSubscriptions.enabled, true), deliverersHere(ctx)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(BATCH)
    .all();
  if (due.length === 0) return 0;
  const lease = later(ctx, LEASE_MS);
  write(ctx, (tx) => {
    for (const { d } of due) tx.update(webhookDeliveries).set({ nextAttemptAt: lease }).where(eq(webhookDeliveries.id, d.id)).run();
  });
  // One endpoint's deliveries go in order; a few endpoints are served side by side.
  const byEndpoint = new Map<string, typeof due>();
  for (const row of due) byEndpoint.set(row.s.id, [...(byEndpoint.get(row.s.id) ?? []), row]);
  const lanes = [...byEndpoint.values()];
  const worker = async () => {
    for (let lane = lanes.shift(); lane; lane = lanes.shift()) {
      for (const { d, s } of lane) {
        // Closing: hand back what is not yet attempted instead of holding its lease.
        if (ctx.loops.signal.aborted) {
          releaseLease(ctx, d);
          continue;
        }
        const fresh = ctx.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, s.id)).get();
        if (!fresh?.enabled) break; // disabled by an earlier attempt in this lane
        await attemptDelivery(ctx, d, fresh, 'automatic');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ENDPOINTS, lanes.length) }, worker));
  return due.length;
}

/** The background loop's tick: delivers everything due now. */
export function deliverDueWebhooks(ctx: Context): Promise<number> {
  return serialized(ctx, async () => {
    let total = 0;
    for (let n = await deliverDueOnce(ctx); n > 0; n = n === BATCH && !ctx.loops.signal.aborted ? await deliverDueOnce(ctx) : 0) total += n;
    return total;
  });
}
