/** The ledger's data, loaded and cached with TanStack Query (keys under the current entity and `ledger`). */
import { keepPreviousData } from '@tanstack/react-query';
import { client, invalidateEntity, unwrap, useEntityQuery, type ApiQuery } from '../../api';
import type { EventPage, StatusCounts } from './types';

/** Every ledger query: an event recorded, decided, reversed or reclassified changes lists, counts, journal and reports. */
export const refreshLedger = () => invalidateEntity('ledger');

export function useEventTypes() {
  return useEntityQuery(['ledger', 'event-types'], () => unwrap(client.GET('/api/ledger/event-types')));
}

export function useAccounts(includeArchived: boolean) {
  return useEntityQuery(['ledger', 'accounts', includeArchived], () => unwrap(client.GET('/api/ledger/accounts', { params: { query: { includeArchived: includeArchived ? 'true' : undefined } } })));
}

export function useEventDetail(eventId: string) {
  return useEntityQuery(['ledger', 'event', eventId], () => unwrap(client.GET('/api/ledger/events/{eventId}', { params: { path: { eventId } } })));
}

type EventFilters = Pick<ApiQuery<'/api/ledger/events'>, 'type' | 'from' | 'to'>;

/** One page of events (the server pages; the page number lives in the URL). The page shown stays until the next arrives. */
export function useEventPage(filters: EventFilters & Pick<ApiQuery<'/api/ledger/events'>, 'postingStatus' | 'page' | 'pageSize'>) {
  return useEntityQuery(['ledger', 'events', filters], async () => (await unwrap(client.GET('/api/ledger/events', { params: { query: filters } }))) as EventPage, { placeholderData: keepPreviousData });
}

/** Events per posting status for the same filters (the tab counts). */
export function useStatusCounts(filters: EventFilters) {
  return useEntityQuery(['ledger', 'event-counts', filters], async () => (await unwrap(client.GET('/api/ledger/events', { params: { query: { ...filters, view: 'statusCounts' } } }))) as StatusCounts, { placeholderData: keepPreviousData });
}
