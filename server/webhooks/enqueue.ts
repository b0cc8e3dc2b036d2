import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/open.js';
import type { DomainEvent } from '../events/bus.js';
import { webhookDeliveries, webhookSubscriptions } from './tables.js';

/** The body every endpoint receives: `{ type, timestamp, data }` (Standard Webhooks). */
export function webhookPayload(e: DomainEvent): string {
  return JSON.stringify({ type: e.type, timestamp: e.createdAt, data: e.data });
}

/** The event happened before the subscription existed (same millisecond: the time-ordered ids decide). */
const isOlder = (e: DomainEvent, sub: { id: string; createdAt: string }) => e.createdAt < sub.createdAt || (e.createdAt === sub.createdAt && e.id < sub.id);

const matches = (events: string[], type: string) => events.includes('*') || events.includes(type);

/**
 * Outbox consumer: one pending delivery per (event, enabled matching subscription), written in
 * the consumer's transaction; re-reading an event after a crash adds nothing (unique index).
 */
export function registerWebhookConsumer(ctx: Context): void {
  ctx.events.registerConsumer('webhooks', (events: DomainEvent[], tx: Db) => {
    const subsByEntity = new Map<string, { id: string; events: string[]; createdAt: string }[]>();
    for (const e of events) {
      let subs = subsByEntity.get(e.entityId);
      if (!subs) {
        subs = tx
          .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events, createdAt: webhookSubscriptions.createdAt })
          .from(webhookSubscriptions)
          .where(and(eq(webhookSubscriptions.entityId, e.entityId), eq(webhookSubscriptions.enabled, true)))
          .all();
        subsByEntity.set(e.entityId, subs);
      }
      for (const sub of subs) {
        // An endpoint gets the events that happen after it was created, as with Svix.
        if (!matches(sub.events, e.type) || isOlder(e, sub)) continue;
        tx.insert(webhookDeliveries)
          .values({
            id: ctx.ids.next(),
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
  });
}
