import { useEffect, useState } from 'react';
import { client, unwrap, useEntityQuery, type Schema } from '../api';

export type SearchGroup = Schema<'SearchGroup'>;
export type SearchHit = Schema<'SearchHit'>;
export type SearchArea = SearchGroup['area'];

/** What each area's group is called, and the page a result opens. */
export const AREAS: Record<SearchArea, { label: string; pathOf: (hit: SearchHit) => string }> = {
  tickets: { label: 'Tickets', pathOf: (h) => `/helpdesk/tickets/${h.id}` },
  // The documents and ledger pages open the named document or event (`document`, `event`).
  documents: { label: 'Documents', pathOf: (h) => `/documents?document=${h.id}` },
  ledgerEvents: { label: 'Ledger events', pathOf: (h) => `/ledger/events?event=${h.id}` },
};

/** One result as the list shows it: its group, its place among all results, the page it opens. */
export interface SearchOption {
  key: string;
  index: number;
  area: SearchArea;
  hit: SearchHit;
  path: string;
}

const DEBOUNCE_MS = 180;
/** What the server accepts: up to 200 characters with at least one letter or digit. */
const searchable = (text: string) => text.trim().length <= 200 && /[\p{L}\p{N}]/u.test(text);

/** The text after the person stopped typing for a moment. */
function useDebounced(text: string): string {
  const [value, setValue] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setValue(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return value;
}

/** The top bar's results for `text`, grouped by area, and every result in order (for the arrow keys). */
export function useSearch(text: string) {
  const q = useDebounced(text.trim());
  const enabled = searchable(q);
  const query = useEntityQuery(['search', q], () => unwrap(client.GET('/api/search', { params: { query: { q, limit: 5 } } })), { enabled, staleTime: 5_000 });
  const groups = enabled ? (query.data?.groups ?? []) : [];
  const options: SearchOption[] = [];
  for (const g of groups) for (const hit of g.hits) options.push({ key: `${g.area}:${hit.id}`, index: options.length, area: g.area, hit, path: AREAS[g.area].pathOf(hit) });
  return { q, enabled, groups, options, loading: enabled && query.isFetching, error: enabled ? query.error : null, settled: enabled && !query.isFetching && q === text.trim() };
}
