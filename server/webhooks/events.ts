import { z } from 'zod';
import { defineEvents, type EventPayloads, type EventType, type PayloadsOf } from '../events/catalogue.js';

export const webhookEvents = defineEvents({
  'webhook.endpoint_disabled': {
    description: 'A webhook subscription was disabled after sustained failure or 410 Gone. data: { subscription: { id, url }, reason }',
    data: z.strictObject({ subscription: z.strictObject({ id: z.uuid(), url: z.string() }), reason: z.string() }),
  },
});

/** "Send test event": delivered to one endpoint on request, never recorded as a domain event nor subscribable. */
export const TEST_EVENT_TYPE = 'webhook.test';
export const testEventData = z.strictObject({ subscriptionId: z.uuid(), message: z.string() });
export type TestEventData = z.input<typeof testEventData>;

/** The JSON body every endpoint receives (Standard Webhooks), typed by event type as `record` is. */
export type WebhookBody<T extends EventType = EventType> = { type: T; timestamp: string; data: EventPayloads[T] };

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof webhookEvents> {}
}
