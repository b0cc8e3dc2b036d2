// The OpenAPI document's `webhooks` section: each event type as its endpoint receives it — a POST
// whose JSON body is the Standard Webhooks envelope `{ type, timestamp, data }` with the event's
// own payload schema as `data`, signed in the `webhook-*` headers (see send.ts and worker.ts).
import { z } from 'zod';
import { eventDefinitions } from '../events/catalogue.js';
import { TEST_EVENT_TYPE, testEventData } from './events.js';

const headers = z.object({
  'webhook-id': z.string().meta({ description: 'The event id: the same on every retry of one delivery (use it to drop duplicates)' }),
  'webhook-timestamp': z.string().meta({ description: 'When this attempt was signed, Unix seconds' }),
  'webhook-signature': z.string().meta({ description: '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the subscription secret (`whsec_…`)' }),
});

const componentId = (type: string) => `${type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Webhook`;

/** The body an endpoint receives for one event type: what a delivered webhook must validate against. */
export function webhookEnvelope(type: string, data: z.ZodType) {
  return z
    .strictObject({ type: z.literal(type), timestamp: z.string().meta({ description: 'When the event happened (ISO 8601, UTC)' }), data })
    .meta({ id: componentId(type) });
}

function operation(type: string, description: string, data: z.ZodType) {
  return {
    post: {
      summary: type,
      description,
      tags: ['Webhooks'],
      requestParams: { header: headers },
      requestBody: { content: { 'application/json': { schema: webhookEnvelope(type, data) } } },
      responses: {
        '200': { description: 'Any 2xx answer within 15 s is success; anything else is retried' },
        '410': { description: 'Gone: the subscription is disabled at once' },
      },
    },
  };
}

/** Every deliverable event type (the catalogue, less device-only types, plus the test event) → its webhook operation. */
export function webhookDocs(): Record<string, ReturnType<typeof operation>> {
  const docs: Record<string, ReturnType<typeof operation>> = {};
  for (const [type, def] of eventDefinitions()) if (!def.local) docs[type] = operation(type, def.description, def.data);
  docs[TEST_EVENT_TYPE] = operation(TEST_EVENT_TYPE, 'Sent on request ("Send test event") to one endpoint, whatever it subscribes to; never retried.', testEventData);
  return docs;
}
