import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';

const event = { eventId: z.uuid(), eventType: z.string().meta({ description: 'The ledger event type, e.g. `invoice.issued`' }) };
const actor = z.strictObject({ type: z.enum(['user', 'api_key', 'anonymous']), id: z.string().nullable(), name: z.string() });

/** The ledger's events: a ledger event's posting status changed. */
export const ledgerEvents = defineEvents({
  'ledger.event.posted': {
    description: 'A ledger event was posted to the journal (on receipt, on approval or as a reclassification). data: { eventId, eventType, postingStatus, entryId, approvedBy? }',
    data: z.strictObject({ ...event, postingStatus: z.literal('posted'), entryId: z.string().optional(), approvedBy: z.uuid().optional().meta({ description: 'The member who approved it, when it was held' }) }),
  },
  'ledger.event.pending_approval': {
    description: 'A ledger event reached an approval threshold and is held. data: { eventId, eventType, postingStatus }',
    data: z.strictObject({ ...event, postingStatus: z.literal('pending_approval') }),
  },
  'ledger.event.failed': {
    description: 'A ledger event could not be posted (invalid payload, rule failure) or was rejected. data: { eventId, eventType, postingStatus, postingError, rejectedBy? }',
    data: z.strictObject({ ...event, postingStatus: z.literal('failed'), postingError: z.string().optional(), rejectedBy: z.uuid().optional().meta({ description: 'The member who rejected it' }) }),
  },
  'ledger.event.reversed': {
    description: 'A posted ledger event was reversed (directly or by reclassification). data: { eventId, eventType, postingStatus, reversalEntryId, reclassifiedTo?, newEventType?, reason?, actor? }',
    data: z.strictObject({
      ...event,
      postingStatus: z.literal('reversed'),
      reversalEntryId: z.string(),
      reclassifiedTo: z.uuid().optional().meta({ description: 'The replacement event, when reclassified' }),
      newEventType: z.string().optional(),
      reason: z.string().optional(),
      actor: actor.optional(),
    }),
  },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof ledgerEvents> {}
}
