import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { client, entityKey, unwrapPage, type ApiQuery } from '../../api';
import { TICKETS_KEY } from './queries';

export const TICKET_PAGE_SIZE = 50;

/**
 * The ticket list a page at a time (cursor in `x-next-cursor`): the browser never holds the whole
 * table (issue 30). A change of filters keeps the rows shown until the new first page arrives.
 */
export function useTicketPages(filters: Omit<ApiQuery<'/api/helpdesk/tickets'>, 'cursor' | 'limit' | 'entityId'>) {
  const query = useInfiniteQuery({
    queryKey: entityKey(...TICKETS_KEY, filters),
    queryFn: ({ pageParam }) => unwrapPage(client.GET('/api/helpdesk/tickets', { params: { query: { ...filters, limit: TICKET_PAGE_SIZE, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? null;
  return { ...query, rows, total };
}
