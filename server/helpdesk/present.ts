import type { helpdeskMessages, helpdeskTickets } from './tables.js';

export type TicketRow = typeof helpdeskTickets.$inferSelect;
export type MessageRow = typeof helpdeskMessages.$inferSelect;

/** The ticket as the API shows it (and as events carry it). */
export function presentTicket(t: TicketRow) {
  const { searchText: _s, provisionalNumber, ...rest } = t;
  return { ...rest, numberProvisional: provisionalNumber !== null && provisionalNumber === t.ticketNumber };
}
export type Ticket = ReturnType<typeof presentTicket>;

export function presentMessage(m: MessageRow) {
  const { entityId: _e, ...rest } = m;
  return rest;
}

/** Who acts: a signed-in user or an API key (see actorOf in auth). */
export interface Actor {
  type: 'user' | 'api_key' | 'anonymous';
  id: string | null;
  name: string;
}
