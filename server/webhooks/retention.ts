import { and, inArray, lt, ne } from 'drizzle-orm';
import type { Context } from '../context.js';
import { webhookDeliveries } from './tables.js';

/** Finished deliveries and their attempts are kept for 90 days, as Svix keeps its message log. */
export const DELIVERY_RETENTION_MS = 90 * 86_400_000;

export function pruneDeliveryLog(ctx: Context): number {
  const cutoff = new Date(ctx.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString();
  const old = ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(ne(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.createdAt, cutoff)))
    .limit(1000)
    .all()
    .map((r) => r.id);
  if (old.length === 0) return 0;
  return ctx.db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).run().changes;
}
