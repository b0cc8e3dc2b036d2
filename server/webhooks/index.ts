import type { Module } from '../modules.js';
import { local } from '../sync/policy.js';
import { webhookRoutes } from './routes.js';
import { registerWebhookConsumer } from './enqueue.js';
import { deliverDueWebhooks } from './worker.js';
import { pruneDeliveryLog } from './retention.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  routes: webhookRoutes,
  sync: {
    webhook_subscriptions: local('not synced yet: endpoints are called by the device where a change began, so each device keeps its own'),
    webhook_deliveries: local('deliveries of this device'),
    webhook_attempts: local('attempt log of this device'),
    webhook_settings: local('not synced yet'),
  },
  start(ctx) {
    registerWebhookConsumer(ctx);
    ctx.loops.add('webhook-delivery', 1_000, async () => void (await deliverDueWebhooks(ctx)));
    ctx.loops.add('webhook-retention', 3_600_000, () => void pruneDeliveryLog(ctx));
  },
};
