import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import type { DomainEvent } from '../events/bus.js';
import { helpdeskDeliveries, helpdeskEmails } from './tables.js';

/** Outbox consumer: the mail loop's results become the delivery state of the reply they carry. */
export function recordDeliveryResults(ctx: Context) {
  return (events: DomainEvent[], tx: Tx) => {
    for (const e of events) {
      if (e.type !== 'mail.sent' && e.type !== 'mail.failed') continue;
      const ref = (e.data.ref ?? {}) as Record<string, string>;
      if (ref.kind !== 'helpdesk_reply' || !ref.messageId) continue;
      const mailId = String(e.data.mailId);
      // Only the attempt the delivery points at counts (a resend replaces the mail it waits for).
      const where = and(eq(helpdeskDeliveries.entityId, e.entityId), eq(helpdeskDeliveries.messageId, ref.messageId), eq(helpdeskDeliveries.mailId, mailId));
      if (e.type === 'mail.sent') {
        tx.update(helpdeskDeliveries).set({ state: 'sent', error: null, sentAt: e.createdAt, updatedAt: nowIso(ctx) }).where(and(where, eq(helpdeskDeliveries.state, 'queued'))).run();
      } else {
        tx.update(helpdeskDeliveries).set({ state: 'failed', error: String(e.data.error ?? 'Delivery failed'), updatedAt: nowIso(ctx) }).where(where).run();
      }
    }
  };
}

/**
 * A bounce that quotes one of our replies' Message-IDs marks that delivery failed with the
 * reason the recipient's server gave. Returns how many deliveries it marked.
 */
export function markBounced(ctx: Context, tx: Tx, entityId: string, quotedIds: string[], reason: string): number {
  if (quotedIds.length === 0) return 0;
  const ours = tx
    .select({ messageId: helpdeskEmails.messageId })
    .from(helpdeskEmails)
    .where(and(eq(helpdeskEmails.entityId, entityId), eq(helpdeskEmails.direction, 'out'), inArray(helpdeskEmails.headerId, quotedIds)))
    .all();
  if (ours.length === 0) return 0;
  return tx
    .update(helpdeskDeliveries)
    .set({ state: 'failed', error: reason, updatedAt: nowIso(ctx) })
    .where(and(eq(helpdeskDeliveries.entityId, entityId), inArray(helpdeskDeliveries.messageId, ours.map((o) => o.messageId))))
    .run().changes;
}
