import { keepPreviousData, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { client, entityKey, queryClient, unwrapPage, type Page } from '../../api';
import { DOCUMENTS_KEY } from './queries';
import type { DocumentItem } from './types';

export const DOCUMENT_PAGE_SIZE = 50;

const keyOf = (folderId: string | null, search: string) => entityKey(...DOCUMENTS_KEY, folderId, search);

/**
 * A folder's documents (its manual order) or every visible one, a page at a time (cursor in
 * `x-next-cursor`): the browser never holds the whole table (issue 30). A change of folder or
 * search keeps the rows shown until the new first page arrives.
 */
export function useDocumentPages(folderId: string | null, search: string) {
  const query = useInfiniteQuery({
    queryKey: keyOf(folderId, search),
    queryFn: ({ pageParam }) => unwrapPage(client.GET('/api/documents', { params: { query: { folderId: folderId ?? undefined, search: search || undefined, limit: DOCUMENT_PAGE_SIZE, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.pages.flatMap((p) => p.items);
  const total = query.data?.pages[0]?.total ?? null;
  return { ...query, rows, total };
}

/**
 * Shows a new manual order at once: the loaded rows in the order given, in pages of the same
 * sizes. The pages are read again afterwards, since their cursors point at the old positions.
 */
export function showDocumentOrder(folderId: string, search: string, ids: string[]) {
  queryClient.setQueryData<InfiniteData<Page<DocumentItem>, string | undefined>>(keyOf(folderId, search), (data) => {
    if (!data) return data;
    const byId = new Map(data.pages.flatMap((p) => p.items).map((d) => [d.id, d]));
    const ordered = ids.map((id) => byId.get(id)).filter((d): d is DocumentItem => d !== undefined);
    let start = 0;
    const pages = data.pages.map((p) => ({ ...p, items: ordered.slice(start, (start += p.items.length)) }));
    return { ...data, pages };
  });
}

