import type { Schema } from '../../api';

// The server's own shapes (generated from its OpenAPI document), so a change of API shape shows up here at compile time.
export type Ticket = Schema<'Ticket'>;
export type TicketWithMessages = Schema<'TicketWithMessages'>;
export type TicketStatus = Ticket['status'];
export type TicketPriority = Ticket['priority'];
export type TicketChannel = Ticket['channel'];
export type TicketMessage = Schema<'TicketMessage'>;
/** Set on public agent replies that are e-mailed to the contact. */
export type MessageDelivery = NonNullable<TicketMessage['delivery']>;
export type MessageAttachment = TicketMessage['attachments'][number];
/** The entity's support mailbox (GET /api/helpdesk/mailbox). The IMAP password is never returned. */
export type Mailbox = Schema<'HelpdeskMailbox'>;
export type IncomingState = Mailbox['incoming']['state'];
export type Member = Schema<'Member'>;
export type Category = Schema<'TicketCategory'>;

export const STATUSES: { value: TicketStatus; label: string; tone: 'blue' | 'violet' | 'amber' | 'green' | 'neutral' }[] = [
  { value: 'new', label: 'New', tone: 'blue' },
  { value: 'open', label: 'Open', tone: 'violet' },
  { value: 'pending', label: 'Pending', tone: 'amber' },
  { value: 'resolved', label: 'Resolved', tone: 'green' },
  { value: 'closed', label: 'Closed', tone: 'neutral' },
];

/** The moves the server allows (see the Ticket status description in /api/openapi.json). */
export const TRANSITIONS: Record<TicketStatus, TicketStatus[]> = {
  new: ['open', 'pending', 'resolved'],
  open: ['pending', 'resolved'],
  pending: ['open', 'resolved'],
  resolved: ['open', 'closed'],
  closed: [],
};

export const PRIORITIES: { value: TicketPriority; label: string; tone: 'neutral' | 'blue' | 'amber' | 'red' }[] = [
  { value: 'low', label: 'Low', tone: 'neutral' },
  { value: 'normal', label: 'Normal', tone: 'blue' },
  { value: 'high', label: 'High', tone: 'amber' },
  { value: 'urgent', label: 'Urgent', tone: 'red' },
];

export const CHANNELS: { value: TicketChannel; label: string }[] = [
  { value: 'api', label: 'API' },
  { value: 'email', label: 'E-mail' },
  { value: 'web', label: 'Web' },
  { value: 'phone', label: 'Phone' },
  { value: 'chat', label: 'Chat' },
];
