import { z } from 'zod';
import { isKnownEventType } from '../events/catalogue.js';

const entityIdField = z.uuid('must be a UUID').optional().meta({ description: 'The entity (query, JSON body or x-entity-id).' });

export const webhookUrlSchema = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .superRefine((v, c) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return void c.addIssue({ code: 'custom', message: 'must be a valid absolute URL' });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') c.addIssue({ code: 'custom', message: 'must use http or https' });
    if (u.username || u.password) c.addIssue({ code: 'custom', message: 'must not contain credentials; use the signing secret to authenticate deliveries' });
    if (u.hash) c.addIssue({ code: 'custom', message: 'must not contain a #fragment' });
  })
  .meta({
    description:
      'http or https endpoint. Loopback, private, link-local and other non-public addresses are accepted only when the entity allows local targets (GET/PUT /api/webhook-subscriptions/settings); the address is checked again when each delivery connects, so DNS cannot be used to reach them.',
  });

export const eventsSchema = z
  .array(z.string('must be a string'), 'must be an array of event types')
  .min(1, 'must name at least one event type (or "*")')
  .max(100)
  .superRefine((list, c) => {
    for (const t of list) if (t !== '*' && !isKnownEventType(t)) c.addIssue({ code: 'custom', message: `Unknown event type: ${t} (see GET /api/webhook-subscriptions/event-types)` });
    if (new Set(list).size !== list.length) c.addIssue({ code: 'custom', message: 'must not repeat' });
  })
  .meta({ description: 'Event types from the catalogue (GET /api/webhook-subscriptions/event-types), or `"*"` for all.' });

export const secretSchema = z
  .string('must be a string')
  .refine((v) => {
    if (!v.startsWith('whsec_')) return false;
    const raw = v.slice(6);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return false;
    const n = Buffer.from(raw, 'base64').length;
    return n >= 24 && n <= 64;
  }, 'must be "whsec_" followed by 24 to 64 base64-encoded random bytes')
  .meta({ description: 'Standard Webhooks secret `whsec_<base64>`; when omitted on create, one is generated. Returned only in the create response.' });

export const deliveredBySchema = z
  .union([z.literal('hosted'), z.literal('this-device'), z.uuid()], { error: 'must be "hosted", "this-device" or a device id' })
  .meta({
    description:
      'Who sends the deliveries, once per event whichever device or member caused it: `hosted` (the hosted instance, always on; the default for public URLs), `this-device` or a device id (for targets only that machine reaches, such as localhost or an office network; the default for those). Only for entities linked to a hosted instance: otherwise this device delivers.',
  });

const description = z.string('must be a string').trim().max(500, 'must be at most 500 characters').nullable();
const metadata = z
  .record(z.string().max(64), z.string('must be strings').max(500), 'must be an object of strings')
  .refine((m) => Object.keys(m).length <= 20, 'metadata may have at most 20 keys')
  .meta({ description: 'Free-form string key/values for your own bookkeeping (max 20 keys).' });

export const subscriptionSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: 'Why it is disabled: by a member, `410 Gone`, or failing for 5 days (as Svix does).' }),
    disabledAt: z.string().nullable(),
    failingSince: z.string().nullable().meta({ description: 'First failed attempt since the last success; null while healthy.' }),
    metadata: z.record(z.string(), z.string()),
    deliveredBy: z.string().nullable().meta({ description: '`hosted`, the id of the device that delivers, or null while the entity is not linked (this device delivers).' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookSubscription' });

export const createdSubscriptionSchema = subscriptionSchema
  .extend({ secret: z.string().meta({ description: 'The signing secret, shown only in this response.' }) })
  .meta({ id: 'CreatedWebhookSubscription' });

export const createSubscriptionBody = z
  .strictObject({
    entityId: entityIdField,
    url: webhookUrlSchema,
    events: eventsSchema,
    secret: secretSchema.optional(),
    description: description.optional(),
    enabled: z.boolean('must be a boolean').default(true),
    metadata: metadata.default({}),
    deliveredBy: deliveredBySchema.optional(),
  })
  .meta({ description: 'Unknown fields are rejected.' });
export type CreateSubscriptionInput = z.output<typeof createSubscriptionBody>;

export const updateSubscriptionBody = z
  .strictObject({
    entityId: entityIdField,
    subscriptionId: z.uuid({ error: (i) => (i.input === undefined ? 'is required' : 'must be a UUID') }),
    url: webhookUrlSchema.optional(),
    events: eventsSchema.optional(),
    secret: secretSchema.optional().meta({ description: 'A new secret (rotation): later attempts are signed with it.' }),
    description: description.optional(),
    enabled: z.boolean('must be a boolean').optional().meta({
      description: 'false pauses deliveries (they wait); true re-enables a disabled endpoint and clears its failure state. Deliveries failed by an automatic disable can be retried by hand.',
    }),
    metadata: metadata.optional(),
    deliveredBy: deliveredBySchema.optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'entityId' && k !== 'subscriptionId'), 'Nothing to update: give at least one field');
export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionBody>;

export const deleteSubscriptionBody = z.strictObject({
  entityId: entityIdField,
  subscriptionId: z.uuid({ error: (i) => (i.input === undefined ? 'is required' : 'must be a UUID') }),
});

export const subscriptionParams = z.object({ subscriptionId: z.uuid('must be a UUID') });
export const deliveryParams = subscriptionParams.extend({ deliveryId: z.uuid('must be a UUID') });

export const attemptSchema = z
  .object({
    id: z.uuid(),
    attempt: z.number().int(),
    trigger: z.enum(['automatic', 'manual']),
    startedAt: z.string(),
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable(),
    success: z.boolean(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().meta({ description: 'The first 1 KB of the response body.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliverySchema = z
  .object({
    id: z.uuid(),
    subscriptionId: z.uuid(),
    eventId: z.uuid().meta({ description: 'Also the `webhook-id` header: the same on every attempt, so receivers can deduplicate.' }),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attemptCount: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    payload: z.unknown().meta({ description: 'The JSON body sent: `{ type, timestamp, data }`.' }),
    createdAt: z.string(),
    attempts: z.array(attemptSchema).meta({ description: 'Every attempt, oldest first.' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const listDeliveriesQuery = z.object({
  entityId: z.string().optional(),
  status: z.enum(['pending', 'succeeded', 'failed'], { error: 'must be one of pending, succeeded, failed' }).optional(),
  limit: z.coerce.number('must be a number').int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
  cursor: z.string().max(200).optional().meta({ description: 'From the `x-next-cursor` header of the previous page.' }),
});

export const settingsSchema = z
  .object({
    allowLocalTargets: z.boolean(),
    source: z.enum(['default', 'entity']).meta({ description: '`default` follows the installation (on for the desktop, off when hosted); `entity` is this entity’s own choice.' }),
  })
  .meta({ id: 'WebhookSettings' });
export const updateSettingsBody = z.strictObject({
  entityId: entityIdField,
  allowLocalTargets: z.boolean('must be a boolean or null').nullable().meta({ description: 'true/false overrides the installation default; null returns to it.' }),
});
