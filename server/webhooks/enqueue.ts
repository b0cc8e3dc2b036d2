import { and, eq, gte } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Tx } from '../db/tx.js';
import { nameBasedId } from '../db/ids.js';
import type { DomainEvent } from '../events/bus.js';
import { entityEvents } from '../events/tables.js';
import type { LoggedChange } from '../kernel/module.js';
import { webhookDeliveries, webhookSubscriptions } from './tables.js';
import { deliversHere } from './deliverer.js';
import type { WebhookBody } from './events.js';

/**
 * The body every endpoint receives: `{ type, timestamp, data }` (Standard Webhooks), published per
 * type in the OpenAPI document's `webhooks` (openapi.ts). `data` was checked against its schema when recorded.
 */
export function webhookPayload(e: Pick<DomainEvent, 'type' | 'createdAt' | 'data'>): string {
  const body = { type: e.type, timestamp: e.createdAt, data: e.data } as WebhookBody;
  return JSON.stringify(body);
}

/** One delivery per (event, subscription), the same id wherever it is made: two makers merge into one row. */
export const deliveryIdOf = (subscriptionId: string, eventId: string) => nameBasedId('webhook_delivery', subscriptionId, eventId);

/** The event happened before the subscription existed (same millisecond: the time-ordered ids decide). */
export const isOlder = (e: { id: string; createdAt: string }, sub: { id: string; createdAt: string }) => e.createdAt < sub.createdAt || (e.createdAt === sub.createdAt && e.id < sub.id);

export const matches = (events: string[], type: string) => events.includes('*') || events.includes(type);

/** An event that reaches a deliverer late (a device offline for long) is still delivered within this window. */
export const CATCH_UP_MS = 7 * 86_400_000;

type SubRef = { id: string; entityId: string; events: string[]; createdAt: string; deliveredBy: string | null };

function subscriptionsDeliveredHere(ctx: Context, tx: Tx, entityId: string): SubRef[] {
  return tx
    .select({ id: webhookSubscriptions.id, entityId: webhookSubscriptions.entityId, events: webhookSubscriptions.events, createdAt: webhookSubscriptions.createdAt, deliveredBy: webhookSubscriptions.deliveredBy })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.entityId, entityId), eq(webhookSubscriptions.enabled, true)))
    .all()
    .filter((s) => deliversHere(ctx, s));
}

/** A pending delivery of `e` to each subscription that wants it; one that exists already stays as it is. */
function enqueueEvent(tx: Tx, e: DomainEvent, subs: SubRef[]): void {
  for (const sub of subs) {
    // An endpoint gets the events that happen after it was created, as with Svix.
    if (!matches(sub.events, e.type) || isOlder(e, sub)) continue;
    tx.insert(webhookDeliveries)
      .values({
        id: deliveryIdOf(sub.id, e.id),
        entityId: e.entityId,
        subscriptionId: sub.id,
        eventId: e.id,
        eventType: e.type,
        payload: webhookPayload(e),
        status: 'pending',
        attemptCount: 0,
        autoAttempts: 0,
        nextAttemptAt: e.createdAt,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: e.createdAt,
        updatedAt: e.createdAt,
      })
      .onConflictDoNothing()
      .run();
  }
}

const fromFact = (r: typeof entityEvents.$inferSelect): DomainEvent => ({ id: r.id, entityId: r.entityId, type: r.type, data: JSON.parse(r.data) as Record<string, unknown>, createdAt: r.createdAt });

/**
 * Outbox consumer: one pending delivery per (event, enabled matching subscription this device
 * delivers), written in the consumer's transaction; re-reading an event after a crash adds
 * nothing. Another writer's event replayed here is theirs to deliver (their deliverers have it).
 */
export function registerWebhookConsumer(ctx: Context): void {
  ctx.events.registerConsumer('webhooks', (events: DomainEvent[], tx: Tx) => {
    const subsByEntity = new Map<string, SubRef[]>();
    for (const e of events) {
      if (e.replayOf && ctx.events.linkedDevice(e.entityId)) continue;
      let subs = subsByEntity.get(e.entityId);
      if (!subs) subsByEntity.set(e.entityId, (subs = subscriptionsDeliveredHere(ctx, tx, e.entityId)));
      enqueueEvent(tx, e, subs);
    }
  });
}

/**
 * Changes another device or the hosted instance made, just applied here in `tx`: their events
 * become deliveries for the subscriptions this device delivers, and a subscription that has just
 * become this device's (created or handed over elsewhere) catches up on the events it missed.
 */
export function enqueuePulledEvents(ctx: Context, tx: Tx, entityId: string, changes: LoggedChange[]): void {
  let subs: SubRef[] | undefined;
  for (const c of changes) {
    if (c.table !== 'entity_events' || c.op !== 'fact') continue;
    const row = tx.select().from(entityEvents).where(and(eq(entityEvents.id, c.rowId), eq(entityEvents.entityId, entityId))).get();
    if (!row) continue;
    subs ??= subscriptionsDeliveredHere(ctx, tx, entityId);
    enqueueEvent(tx, fromFact(row), subs);
  }
  const handedOver = new Set(changes.filter((c) => c.table === 'webhook_subscriptions' && ('delivered_by' in c.columns || 'created_at' in c.columns)).map((c) => c.rowId));
  if (handedOver.size === 0) return;
  for (const sub of (subs ?? subscriptionsDeliveredHere(ctx, tx, entityId)).filter((s) => handedOver.has(s.id))) catchUp(ctx, tx, sub);
}

/** The events a subscription delivered here has not had yet (within the catch-up window). */
function catchUp(ctx: Context, tx: Tx, sub: SubRef): void {
  const since = new Date(Math.max(Date.parse(sub.createdAt), ctx.clock.now().getTime() - CATCH_UP_MS)).toISOString();
  const rows = tx.select().from(entityEvents).where(and(eq(entityEvents.entityId, sub.entityId), gte(entityEvents.createdAt, since))).all();
  for (const r of rows) enqueueEvent(tx, fromFact(r), [sub]);
}
