import { EmptyState, Spinner } from '../../ui/components';
import { DocumentList, type DocumentActions } from './DocumentList';
import { LoadMore } from './LoadMore';
import type { DocumentItem } from './types';

/** The documents loaded so far (or why there are none), and "Load more" while the server has more. */
export function DocumentResults({
  rows,
  total,
  query,
  inFolder,
  more,
  canEdit,
  onOpen,
  onReorder,
  onRequest,
  actions,
}: {
  rows: DocumentItem[] | undefined;
  total: number | null;
  query: string;
  inFolder: boolean;
  more: { has: boolean; loading: boolean; load: () => void };
  canEdit: (d: DocumentItem) => boolean;
  onOpen: (d: DocumentItem) => void;
  onReorder?: (ids: string[]) => void;
  onRequest: (d: DocumentItem) => void;
  actions: DocumentActions;
}) {
  if (rows === undefined) return <Spinner />;
  if (rows.length === 0) {
    return query ? (
      <EmptyState title="No matching documents" icon="▤">
        No document name contains “{query}”{inFolder ? ' in this folder' : ''}.
      </EmptyState>
    ) : (
      <EmptyState title="No documents yet" icon="▤">
        Upload a PDF to store it here and send it for signature.
      </EmptyState>
    );
  }
  return (
    <>
      <DocumentList documents={rows} canEdit={canEdit} onOpen={onOpen} onReorder={onReorder} onRequest={onRequest} actions={actions} />
      <LoadMore shown={rows.length} total={total} noun="documents" more={more} />
    </>
  );
}
