/**
 * Every domain event type the server records, with what it means. Webhook subscriptions may
 * name these (or `*`); each module adds its own types here.
 */
export interface EventTypeInfo {
  type: string;
  description: string;
}

export const EVENT_CATALOGUE: EventTypeInfo[] = [
  { type: 'ticket.created', description: 'A helpdesk ticket was created. data: { ticket, actor }' },
  { type: 'ticket.updated', description: 'Ticket fields changed. data: { ticket, changes: string[], actor }' },
  { type: 'ticket.status_changed', description: 'A ticket moved to another status. data: { ticket, from, to, actor }' },
  { type: 'ticket.assigned', description: 'A ticket was assigned or unassigned. data: { ticket, from, to, actor }' },
  { type: 'ticket.message.created', description: 'A reply, internal note or customer message was added. data: { ticket, message, actor }' },
  { type: 'transfer.shielded', description: 'A deposit into the shielded pool was confirmed on chain. data: { activity }' },
  { type: 'transfer.sent', description: 'A private transfer from this entity was confirmed on chain. data: { activity }' },
  { type: 'transfer.received', description: 'A shielded note for this entity was found and decrypted. data: { activity }' },
  { type: 'transfer.unshielded', description: 'A withdrawal from the shielded pool to a public address was confirmed on chain. data: { activity }' },
  { type: 'notification.created', description: 'A notification was created. data: { notification }' },
  { type: 'webhook.endpoint_disabled', description: 'A webhook subscription was disabled after sustained failure or 410 Gone. data: { subscription: { id, url }, reason }' },
  { type: 'ledger.event.posted', description: 'A ledger event was posted to the journal (on receipt, on approval or as a reclassification). data: { eventId, eventType, postingStatus, entryId, approvedBy? }' },
  { type: 'ledger.event.pending_approval', description: 'A ledger event reached an approval threshold and is held. data: { eventId, eventType, postingStatus }' },
  { type: 'ledger.event.failed', description: 'A ledger event could not be posted (invalid payload, rule failure) or was rejected. data: { eventId, eventType, postingStatus, postingError, rejectedBy? }' },
  { type: 'ledger.event.reversed', description: 'A posted ledger event was reversed (directly or by reclassification). data: { eventId, eventType, postingStatus, reversalEntryId, reclassifiedTo?, newEventType? }' },
  { type: 'document.uploaded', description: 'A PDF was uploaded. data: { documentId, name, sha256, size, pageCount, folderId }' },
  { type: 'signature_request.sent', description: 'A signature request was sent to its signers. data: { requestId, title, documentId, signers: [{ id, email, role }] }' },
  { type: 'signature_request.completed', description: 'Everyone signed; the sealed PDF exists. data: { requestId, title, documentId, signedSha256, completedAt }' },
  { type: 'signature_request.cancelled', description: 'The sender cancelled a signature request. data: { requestId, title, from }' },
  { type: 'signature_request.declined', description: 'A signer declined; the request is closed. data: { requestId, title, signerId, name, email, reason }' },
  { type: 'signature_request.expired', description: 'The due date passed before everyone signed. data: { requestId, title, dueDate }' },
  { type: 'signer.signed', description: 'One signer signed (or approved / acknowledged). data: { requestId, signerId, name, email, role, signedAt }' },
  { type: 'mail.sent', description: "An e-mail was delivered to this device's SMTP server or handed to the hosted instance, which sends it (`via`: smtp | hosted). data: { mailId, to, subject, ref, via }" },
  { type: 'mail.failed', description: 'An e-mail could not be delivered after all retries. data: { mailId, to, subject, ref, error }' },
];

export function isKnownEventType(type: string): boolean {
  return EVENT_CATALOGUE.some((e) => e.type === type);
}
