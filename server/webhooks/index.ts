import { isNull, and, eq } from 'drizzle-orm';
import type { Module } from '../kernel/module.js';
import { fact, mutable, secret } from '../kernel/sync-policy.js';
import { webhookRoutes } from './routes.js';
import { enqueuePulledEvents, registerWebhookConsumer } from './enqueue.js';
import { deliverDueWebhooks } from './worker.js';
import { pruneDeliveryLog } from './retention.js';
import { webhookSubscriptions } from './tables.js';
import { shareSecrets } from './share-secrets.js';
import { webhookEvents } from './events.js';

export { webhookDocs } from './openapi.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  routes: webhookRoutes,
  events: webhookEvents,
  sync: {
    // Entity data: every device of an owner or admin sees and edits them; exactly one deliverer each (deliverer.ts).
    webhook_subscriptions: mutable,
    webhook_deliveries: mutable,
    webhook_attempts: fact,
    webhook_settings: mutable,
    webhook_secrets: secret('signing secrets, sealed with this device key; the hosted instance gets them by its own endpoint'),
  },
  start(ctx) {
    registerWebhookConsumer(ctx);
    ctx.loops.add('webhook-delivery', 1_000, async () => void (await deliverDueWebhooks(ctx)));
    ctx.loops.add('webhook-retention', 3_600_000, () => void pruneDeliveryLog(ctx));
  },
  onPulledChanges: enqueuePulledEvents,
  // Subscriptions made before linking stay with this device (it holds their secrets and reaches their targets).
  onLinking(ctx, tx, entityId, deviceId) {
    tx.update(webhookSubscriptions).set({ deliveredBy: deviceId }).where(and(eq(webhookSubscriptions.entityId, entityId), isNull(webhookSubscriptions.deliveredBy))).run();
  },
  beforePush: shareSecrets,
};
export { CATCH_UP_MS, deliveryIdOf, isOlder, matches, webhookPayload } from './enqueue.js';
export { HOSTED_DELIVERER } from './deliverer.js';
export { DELIVERY_TIMEOUT_MS, sendWebhook, type SendResult } from './send.js';
export { DISABLE_AFTER_MS, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './schedule.js';
