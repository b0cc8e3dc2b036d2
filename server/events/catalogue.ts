/**
 * Every domain event type the server records, with what it means. Webhook subscriptions may
 * name these (or `*`); each module adds its own types here.
 */
export interface EventTypeInfo {
  type: string;
  description: string;
}

export const EVENT_CATALOGUE: EventTypeInfo[] = [
  { type: 'ledger.event.posted', description: 'A ledger event was posted to the journal (on receipt, on approval or as a reclassification). data: { eventId, eventType, postingStatus, entryId, approvedBy? }' },
  { type: 'ledger.event.pending_approval', description: 'A ledger event reached an approval threshold and is held. data: { eventId, eventType, postingStatus }' },
  { type: 'ledger.event.failed', description: 'A ledger event could not be posted (invalid payload, rule failure) or was rejected. data: { eventId, eventType, postingStatus, postingError, rejectedBy? }' },
  { type: 'ledger.event.reversed', description: 'A posted ledger event was reversed (directly or by reclassification). data: { eventId, eventType, postingStatus, reversalEntryId, reclassifiedTo?, newEventType? }' },
];

export function isKnownEventType(type: string): boolean {
  return EVENT_CATALOGUE.some((e) => e.type === type);
}
