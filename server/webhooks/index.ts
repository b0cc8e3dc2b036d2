import type { Module } from '../modules.js';
import { webhookRoutes } from './routes.js';
import { registerWebhookConsumer } from './enqueue.js';
import { deliverDueWebhooks } from './worker.js';
import { pruneDeliveryLog } from './retention.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  routes: webhookRoutes,
  start(ctx) {
    registerWebhookConsumer(ctx);
    ctx.loops.add('webhook-delivery', 1_000, async () => void (await deliverDueWebhooks(ctx)));
    ctx.loops.add('webhook-retention', 3_600_000, () => void pruneDeliveryLog(ctx));
  },
};
