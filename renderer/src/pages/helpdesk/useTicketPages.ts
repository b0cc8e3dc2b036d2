import { client, unwrapPage, useEntityPages, type ApiQuery } from '../../api';
import { TICKETS_KEY } from './queries';

export const TICKET_PAGE_SIZE = 50;

/** The ticket list a page at a time; a change of filters keeps the rows shown until the new first page arrives. */
export function useTicketPages(filters: Omit<ApiQuery<'/api/helpdesk/tickets'>, 'cursor' | 'limit' | 'entityId'>) {
  const pages = useEntityPages([...TICKETS_KEY, filters], (cursor) => unwrapPage(client.GET('/api/helpdesk/tickets', { params: { query: { ...filters, limit: TICKET_PAGE_SIZE, cursor } } })));
  return { ...pages, rows: pages.rows ?? [] };
}
