export type TicketStatus = 'new' | 'open' | 'pending' | 'resolved' | 'closed';
export type TicketPriority = 'low' | 'normal' | 'high' | 'urgent';
export type TicketChannel = 'email' | 'web' | 'phone' | 'chat' | 'api';

export interface Ticket {
  id: string;
  entityId: string;
  ticketNumber: string;
  subject: string;
  description: string | null;
  status: TicketStatus;
  priority: TicketPriority;
  channel: TicketChannel;
  contactEmail: string | null;
  contactName: string | null;
  categoryId: string | null;
  createdBy: string | null;
  assignedTo: string | null;
  createdAt: string;
  updatedAt: string;
  firstResponseAt: string | null;
  resolvedAt: string | null;
  closedAt: string | null;
}

export interface TicketMessage {
  id: string;
  ticketId: string;
  authorType: 'agent' | 'customer' | 'system';
  authorId: string | null;
  authorName: string;
  body: string;
  isInternal: boolean;
  createdAt: string;
}

export interface Member {
  userId: string;
  name: string;
  email: string;
  role: string;
}

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
