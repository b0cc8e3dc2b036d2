import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import { eventCatalogue } from '../events/catalogue.js';
import * as s from './schemas.js';
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions, updateSubscription } from './subscriptions.js';
import { getDelivery, listDeliveries, retryDelivery } from './deliveries.js';
import { getWebhookSettings, updateWebhookSettings } from './settings.js';
import { sendTestEvent } from './test-event.js';
import { MAX_ATTEMPTS } from './schedule.js';

const tags = ['Webhooks'];
const view: EntityAccess = { entity: 'QBH', permission: 'WEBHOOKS.VIEW', scope: 'read:webhooks' };
const manage: EntityAccess = { entity: 'QBH', permission: 'WEBHOOKS.MANAGE', scope: 'write:webhooks' };

const DELIVERY_FORMAT = `Delivery follows Standard Webhooks: POST with JSON body \`{ type, timestamp, data }\` and headers \`webhook-id\` (the event id, the same on every retry), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\` with the subscription secret. A 2xx answer within 15 s is success; anything else (redirects included) is retried on Svix's schedule — 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with ±10 % jitter, ${MAX_ATTEMPTS} attempts in all — waiting longer when the endpoint sends \`Retry-After\`. \`410 Gone\` disables the endpoint at once; an endpoint that has failed without a success for 5 days is disabled and the entity's owners and admins are notified.`;

export const webhookRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/webhook-subscriptions/event-types', summary: 'The event catalogue: types a subscription may name (or "*")', description: DELIVERY_FORMAT, tags, access: 'user', response: z.array(z.object({ type: z.string(), description: z.string() })) },
    () => eventCatalogue(),
  ),
  route(
    { method: 'get', path: '/api/webhook-subscriptions/settings', summary: "The entity's webhook settings", tags, access: view, response: s.settingsSchema },
    ({ ctx, entityId }) => getWebhookSettings(ctx, entityId),
  ),
  route(
    {
      method: 'put',
      path: '/api/webhook-subscriptions/settings',
      summary: 'Allow or refuse local (loopback/private network) webhook targets for the entity',
      description: 'A security setting, so it needs a signed-in member with SETTINGS.MANAGE; API keys cannot change it.',
      tags,
      access: { entity: 'QBH', permission: 'SETTINGS.MANAGE' },
      body: s.updateSettingsBody,
      response: s.settingsSchema,
    },
    ({ ctx, entityId, body }) => updateWebhookSettings(ctx, entityId, body.allowLocalTargets),
  ),
  route(
    { method: 'get', path: '/api/webhook-subscriptions', summary: "List the entity's webhook subscriptions (newest first; never the secret)", tags, access: view, response: z.array(s.subscriptionSchema) },
    ({ ctx, entityId }) => listSubscriptions(ctx, entityId),
  ),
  route(
    { method: 'post', path: '/api/webhook-subscriptions', summary: 'Create a webhook subscription', description: `The response includes the signing secret, once.\n\n${DELIVERY_FORMAT}`, tags, access: manage, body: s.createSubscriptionBody, response: s.createdSubscriptionSchema, status: 201 },
    ({ ctx, entityId, body }) => createSubscription(ctx, entityId, body),
  ),
  route(
    { method: 'put', path: '/api/webhook-subscriptions', summary: 'Update a subscription by subscriptionId (partial)', tags, access: manage, body: s.updateSubscriptionBody, response: s.subscriptionSchema },
    ({ ctx, entityId, body }) => updateSubscription(ctx, entityId, body),
  ),
  route(
    { method: 'delete', path: '/api/webhook-subscriptions', summary: 'Delete a subscription by subscriptionId, with its delivery log', tags, access: manage, body: s.deleteSubscriptionBody, response: z.object({ deleted: z.boolean(), id: z.uuid() }) },
    ({ ctx, entityId, body }) => deleteSubscription(ctx, entityId, body.subscriptionId),
  ),
  route(
    { method: 'get', path: '/api/webhook-subscriptions/{subscriptionId}', summary: 'Get one subscription', tags, access: view, params: s.subscriptionParams, response: s.subscriptionSchema },
    ({ ctx, entityId, params }) => getSubscription(ctx, entityId, params.subscriptionId),
  ),
  route(
    {
      method: 'get',
      path: '/api/webhook-subscriptions/{subscriptionId}/deliveries',
      summary: 'The delivery log: deliveries newest first, each with every attempt',
      description: 'Filter by `status`; `limit` 1–100 (default 20); the next page is in the `x-next-cursor` header.',
      tags,
      access: view,
      params: s.subscriptionParams,
      query: s.listDeliveriesQuery,
      response: z.array(s.deliverySchema),
    },
    ({ ctx, entityId, params, query, res }) => {
      const page = listDeliveries(ctx, entityId, params.subscriptionId, query);
      if (page.nextCursor) res.setHeader('x-next-cursor', page.nextCursor);
      return page.items;
    },
  ),
  route(
    { method: 'get', path: '/api/webhook-subscriptions/{subscriptionId}/deliveries/{deliveryId}', summary: 'One delivery with its attempts', tags, access: view, params: s.deliveryParams, response: s.deliverySchema },
    ({ ctx, entityId, params }) => getDelivery(ctx, entityId, params.subscriptionId, params.deliveryId),
  ),
  route(
    {
      method: 'post',
      path: '/api/webhook-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry',
      summary: 'Retry a delivery by hand, now',
      description: 'Makes one attempt at once with the same webhook-id and body and returns the delivery with it. Works for any status; a failed manual retry does not change the automatic schedule.',
      tags,
      access: manage,
      params: s.deliveryParams,
      response: s.deliverySchema,
      errors: { 409: 'The endpoint is disabled' },
    },
    ({ ctx, entityId, params }) => retryDelivery(ctx, entityId, params.subscriptionId, params.deliveryId),
  ),
  route(
    {
      method: 'post',
      path: '/api/webhook-subscriptions/{subscriptionId}/test',
      summary: 'Send a test event to the endpoint, now',
      description:
        'Sends one signed `webhook.test` event (`data: { subscriptionId, message }`) to this endpoint whatever events it subscribes to, waits for the answer (15 s at most) and returns the delivery with its attempt; it also appears in the delivery log. Test events are never retried automatically.',
      tags,
      access: manage,
      params: s.subscriptionParams,
      response: s.deliverySchema,
      status: 201,
      errors: { 409: 'The endpoint is disabled' },
    },
    ({ ctx, entityId, params }) => sendTestEvent(ctx, entityId, params.subscriptionId),
  ),
];
