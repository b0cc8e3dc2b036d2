/** The helpdesk's data, loaded and cached with TanStack Query (keys under the current entity). */
import { client, getCurrentEntity, unwrap, useEntityQuery } from '../../api';
import type { Member } from './types';

export const ticketKey = (id: string) => ['helpdesk', 'ticket', id];
export const TICKETS_KEY = ['helpdesk', 'tickets'];
export const CATEGORIES_KEY = ['helpdesk', 'categories'];

/** The entity's members, for the assignee picker and names in the list. */
export function useMembers() {
  return useEntityQuery(['members', 'or-none'], async () => {
    const entityId = getCurrentEntity();
    if (!entityId) return [] as Member[];
    try {
      return await unwrap(client.GET('/api/entities/{entityId}/members', { params: { path: { entityId } } }));
    } catch {
      return [] as Member[]; // a role without MEMBERS.VIEW simply sees ids
    }
  });
}

export function useCategories() {
  return useEntityQuery(CATEGORIES_KEY, () => unwrap(client.GET('/api/helpdesk/categories')));
}

/** The entity's support mailbox and the state of its incoming and outgoing mail. */
export function useMailbox() {
  return useEntityQuery(['helpdesk', 'mailbox'], () => unwrap(client.GET('/api/helpdesk/mailbox')));
}

/**
 * A ticket with its timeline. Replies waiting in the outbox turn to sent (or failed) in the
 * background, and customers' e-mails arrive: refresh quickly while something is queued, slowly otherwise.
 */
export function useTicket(ticketId: string) {
  return useEntityQuery(ticketKey(ticketId), () => unwrap(client.GET('/api/helpdesk/tickets/{ticketId}', { params: { path: { ticketId } } })), {
    refetchInterval: (query) => (query.state.data?.messages.some((m) => m.delivery?.state === 'queued') ? 3_000 : 30_000),
  });
}
