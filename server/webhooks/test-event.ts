// "Send test event", as Stripe and Svix offer it: one signed `webhook.test` message to one endpoint,
// attempted at once and kept in that endpoint's delivery log. It goes to the endpoint whatever
// events it subscribes to, and is never retried automatically (it has no schedule).
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { ConflictError, ServiceUnavailableError } from '../http/errors.js';
import { getDelivery } from './deliveries.js';
import { findSubscription } from './subscriptions.js';
import { webhookDeliveries } from './tables.js';
import { attemptDelivery, serialized } from './worker.js';
import { deliversHere } from './deliverer.js';
import { MAX_ATTEMPTS } from './schedule.js';
import { TEST_EVENT_TYPE, type TestEventData } from './events.js';

export { TEST_EVENT_TYPE };

export async function sendTestEvent(ctx: Context, entityId: string, subscriptionId: string) {
  findSubscription(ctx.db, entityId, subscriptionId);
  const deliveryId = await serialized(ctx, async () => {
    const sub = findSubscription(ctx.db, entityId, subscriptionId);
    if (!sub.enabled) throw new ConflictError('The endpoint is disabled; enable it before sending a test event');
    const now = nowIso(ctx);
    // Another deliverer (the hosted instance, another device) sends it when the row reaches it: one attempt, due now.
    const elsewhere = !deliversHere(ctx, sub);
    const payload = JSON.stringify({ type: TEST_EVENT_TYPE, timestamp: now, data: { subscriptionId, message: 'A test event sent from Bureau. No action is needed.' } satisfies TestEventData });
    const delivery = ctx.db
      .insert(webhookDeliveries)
      .values({
        id: ctx.ids.next(),
        entityId,
        subscriptionId,
        eventId: ctx.ids.next(),
        eventType: TEST_EVENT_TYPE,
        payload,
        status: 'pending',
        attemptCount: 0,
        autoAttempts: elsewhere ? MAX_ATTEMPTS - 1 : 0,
        // No schedule: the worker never picks it up, and a failed attempt ends it as failed.
        nextAttemptAt: elsewhere ? now : null,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    if (elsewhere) return delivery.id;
    if (!(await attemptDelivery(ctx, delivery, sub, 'manual'))) {
      // Closing: a test that was never sent is not worth keeping in the log.
      ctx.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)).run();
      throw new ServiceUnavailableError('Bureau is closing; the test event was not sent');
    }
    return delivery.id;
  });
  return getDelivery(ctx, entityId, subscriptionId, deliveryId);
}
