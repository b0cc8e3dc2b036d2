import { oneOf, pageNumber, useSearchState } from '../../ui/hooks';
import { STATUSES, type PostingStatus } from './types';

export type Filter = PostingStatus | 'all';
const FILTERS: Filter[] = ['all', ...STATUSES.map((s) => s.value)];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The events list's filters, page and open event, kept in the URL: reload, Back and a shared link keep them. */
export function useEventFilters() {
  const [params, setParams] = useSearchState({ status: 'all', type: '', from: '', to: '', page: '1', event: '' });
  const status = oneOf(params.status, FILTERS, 'all');
  const { type } = params;
  const fromDate = DAY.test(params.from) ? params.from : '';
  const toDate = DAY.test(params.to) ? params.to : '';
  const page = pageNumber(params.page);
  // Whole days in UTC, like the trial balance's "as of".
  const range = { type: type || undefined, from: fromDate ? `${fromDate}T00:00:00.000Z` : undefined, to: toDate ? `${toDate}T23:59:59.999Z` : undefined };
  return {
    status,
    type,
    fromDate,
    toDate,
    page,
    range,
    detailId: params.event || null,
    filtered: status !== 'all' || !!type || !!fromDate || !!toDate,
    setParams,
    // The open event is a selection rather than a step: it replaces the history entry.
    setDetailId: (id: string | null) => setParams({ event: id }, { replace: true }),
    setPage: (next: number) => setParams({ page: next }),
  };
}

export type EventFilterState = ReturnType<typeof useEventFilters>;
