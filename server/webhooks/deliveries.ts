import { and, asc, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import { webhookAttempts, webhookDeliveries } from './tables.js';
import { findSubscription } from './subscriptions.js';
import { attemptDelivery, serialized } from './worker.js';
import { deliversHere } from './deliverer.js';
import { MAX_ATTEMPTS } from './schedule.js';
import { nowIso } from '../context.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

function present(d: DeliveryRow, attempts: AttemptRow[]) {
  const { entityId: _e, payload, autoAttempts: _a, updatedAt: _u, ...rest } = d;
  return { ...rest, payload: JSON.parse(payload) as unknown, attempts: attempts.map(({ entityId: _x, deliveryId: _y, ...a }) => a) };
}

function attemptsOf(ctx: Context, deliveryIds: string[]) {
  const map = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return map;
  const rows = ctx.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(asc(webhookAttempts.attempt)).all();
  for (const r of rows) map.set(r.deliveryId, [...(map.get(r.deliveryId) ?? []), r]);
  return map;
}

/**
 * The delivery log of one endpoint, newest first, each with every attempt. Ordered by event id
 * within a moment: delivery ids are name-based (deliveryIdOf), event ids are time-ordered.
 */
export function listDeliveries(ctx: Context, entityId: string, subscriptionId: string, q: { status?: DeliveryRow['status']; limit: number; cursor?: string }) {
  findSubscription(ctx.db, entityId, subscriptionId);
  const filters: (SQL | undefined)[] = [eq(webhookDeliveries.entityId, entityId), eq(webhookDeliveries.subscriptionId, subscriptionId)];
  if (q.status) filters.push(eq(webhookDeliveries.status, q.status));
  if (q.cursor) {
    const [createdAt, eventId] = decodeCursor(q.cursor);
    filters.push(or(lt(webhookDeliveries.createdAt, createdAt), and(eq(webhookDeliveries.createdAt, createdAt), lt(webhookDeliveries.eventId, eventId))));
  }
  const rows = ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(...filters))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventId))
    .limit(q.limit + 1)
    .all();
  const page = rows.slice(0, q.limit);
  const attempts = attemptsOf(ctx, page.map((d) => d.id));
  return { items: page.map((d) => present(d, attempts.get(d.id) ?? [])), nextCursor: rows.length > q.limit ? encodeCursor([page[page.length - 1].createdAt, page[page.length - 1].eventId]) : null };
}

function findDelivery(ctx: Context, entityId: string, subscriptionId: string, deliveryId: string): DeliveryRow {
  const row = ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.entityId, entityId), eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.id, deliveryId)))
    .get();
  if (!row) throw new NotFoundError('Delivery not found');
  return row;
}

export function getDelivery(ctx: Context, entityId: string, subscriptionId: string, deliveryId: string) {
  const d = findDelivery(ctx, entityId, subscriptionId, deliveryId);
  return present(d, attemptsOf(ctx, [d.id]).get(d.id) ?? []);
}

/**
 * Attempts a delivery once more, now, with the same webhook-id and body (any status). The
 * endpoint must be enabled (409 otherwise). Returns the delivery with the new attempt.
 */
/** Its deliverer is elsewhere: the delivery is due again now, and the row takes the request there. */
function askDelivererToRetry(ctx: Context, d: DeliveryRow): void {
  const now = nowIso(ctx);
  // Finished ones get one more automatic attempt; a pending one keeps its place in the schedule.
  const autoAttempts = d.status === 'pending' ? d.autoAttempts : Math.max(d.autoAttempts, MAX_ATTEMPTS - 1);
  ctx.db.update(webhookDeliveries).set({ status: 'pending', nextAttemptAt: now, autoAttempts, updatedAt: now }).where(eq(webhookDeliveries.id, d.id)).run();
}

export async function retryDelivery(ctx: Context, entityId: string, subscriptionId: string, deliveryId: string) {
  findDelivery(ctx, entityId, subscriptionId, deliveryId);
  await serialized(ctx, async () => {
    const sub = findSubscription(ctx.db, entityId, subscriptionId);
    if (!sub.enabled) throw new ConflictError('The endpoint is disabled; enable it before retrying deliveries');
    if (!deliversHere(ctx, sub)) return void askDelivererToRetry(ctx, findDelivery(ctx, entityId, subscriptionId, deliveryId));
    await attemptDelivery(ctx, findDelivery(ctx, entityId, subscriptionId, deliveryId), sub, 'manual');
  });
  return getDelivery(ctx, entityId, subscriptionId, deliveryId);
}
