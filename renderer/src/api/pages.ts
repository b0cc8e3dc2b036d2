import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { entityKey } from './queries';
import type { Page } from './raw';

/**
 * A list of the current entity a page at a time (cursor in `x-next-cursor`): the browser never
 * holds the whole table (issue 30). `rows` are the pages loaded so far, `total` the server's
 * `x-total-count`. A change of `key` (filters) keeps the rows shown until the new first page arrives.
 */
export function useEntityPages<T>(key: unknown[], loadPage: (cursor: string | undefined) => Promise<Page<T>>) {
  const query = useInfiniteQuery({
    queryKey: entityKey(...key),
    queryFn: ({ pageParam }) => loadPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.pages.flatMap((p) => p.items);
  const total = query.data?.pages[0]?.total ?? null;
  return { ...query, rows, total };
}
