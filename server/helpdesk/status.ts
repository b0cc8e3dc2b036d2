import { ConflictError } from '../http/errors.js';
import type { TicketStatus } from './schemas.js';

/** Allowed status moves (Zammad-style lifecycle); `closed` is final. */
export const TICKET_TRANSITIONS: Record<TicketStatus, readonly TicketStatus[]> = {
  new: ['open', 'pending', 'resolved'],
  open: ['pending', 'resolved'],
  pending: ['open', 'resolved'],
  resolved: ['open', 'closed'],
  closed: [],
};

export interface StatusTimestamps {
  resolvedAt: string | null;
  closedAt: string | null;
}

/** Checks a move and returns the lifecycle timestamps after it; an invalid move is a 409. */
export function moveTicketStatus(from: TicketStatus, to: TicketStatus, current: StatusTimestamps, now: string): StatusTimestamps {
  if (!TICKET_TRANSITIONS[from].includes(to)) {
    const allowed = TICKET_TRANSITIONS[from];
    throw new ConflictError(`Cannot change ticket status from ${from} to ${to}` + (allowed.length ? ` (allowed: ${allowed.join(', ')})` : ` (${from} is final)`), { from, to, allowed });
  }
  if (to === 'resolved') return { resolvedAt: now, closedAt: null };
  if (to === 'closed') return { resolvedAt: current.resolvedAt, closedAt: now };
  return { resolvedAt: null, closedAt: null };
}
