import type { InfiniteData } from '@tanstack/react-query';
import { client, entityKey, queryClient, unwrapPage, useEntityPages, type Page } from '../../api';
import { DOCUMENTS_KEY } from './queries';
import type { DocumentItem } from './types';

export const DOCUMENT_PAGE_SIZE = 50;

const listKey = (folderId: string | null, search: string) => [...DOCUMENTS_KEY, folderId, search];

/**
 * A folder's documents (its manual order) or every visible one, a page at a time: the browser
 * never holds the whole table (issue 30).
 */
export function useDocumentPages(folderId: string | null, search: string) {
  return useEntityPages(listKey(folderId, search), (cursor) =>
    unwrapPage(client.GET('/api/documents', { params: { query: { folderId: folderId ?? undefined, search: search || undefined, limit: DOCUMENT_PAGE_SIZE, cursor } } })),
  );
}

/**
 * Shows a new manual order at once: the loaded rows in the order given, in pages of the same
 * sizes. The pages are read again afterwards, since their cursors point at the old positions.
 */
export function showDocumentOrder(folderId: string, search: string, ids: string[]) {
  queryClient.setQueryData<InfiniteData<Page<DocumentItem>, string | undefined>>(entityKey(...listKey(folderId, search)), (data) => {
    if (!data) return data;
    const byId = new Map(data.pages.flatMap((p) => p.items).map((d) => [d.id, d]));
    const ordered = ids.map((id) => byId.get(id)).filter((d): d is DocumentItem => d !== undefined);
    let start = 0;
    const pages = data.pages.map((p) => ({ ...p, items: ordered.slice(start, (start += p.items.length)) }));
    return { ...data, pages };
  });
}

