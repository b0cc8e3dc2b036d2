import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { ActionsMenu } from './ActionsMenu';
import { DOCUMENT_DRAG_TYPE, type DocumentItem } from './types';

export interface DocumentActions {
  onRename: (d: DocumentItem) => void;
  onMove: (d: DocumentItem) => void;
  onDelete: (d: DocumentItem) => void;
}

/**
 * Documents of a folder (or every folder). Rows the caller may change can be dragged onto a folder
 * in the tree and have a menu (rename, move, delete); with `onReorder`, rows can also be dragged
 * into a new order.
 */
export function DocumentList({
  documents,
  canEdit,
  onOpen,
  onReorder,
  onRequest,
  actions,
}: {
  documents: DocumentItem[];
  canEdit: (d: DocumentItem) => boolean;
  onOpen: (d: DocumentItem) => void;
  onReorder?: (ids: string[]) => void;
  onRequest: (d: DocumentItem) => void;
  actions: DocumentActions;
}) {
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const drop = (targetId: string) => {
    if (!dragging || dragging === targetId || !onReorder) return;
    const ids = documents.map((d) => d.id).filter((id) => id !== dragging);
    ids.splice(ids.indexOf(targetId), 0, dragging);
    onReorder(ids);
  };
  return (
    <ul className="doc-list" aria-label="Documents">
      {documents.map((d) => {
        const editable = canEdit(d);
        return (
          <li
            key={d.id}
            className={`doc-item ${over === d.id ? 'drag-over' : ''}`}
            draggable={editable}
            data-testid="doc-item"
            onDragStart={(e) => {
              setDragging(d.id);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData(DOCUMENT_DRAG_TYPE, d.id);
              e.dataTransfer.setData('text/plain', d.name);
            }}
            onDragOver={(e) => {
              if (!onReorder || !dragging) return;
              e.preventDefault();
              setOver(d.id);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(null);
              drop(d.id);
            }}
            onDragEnd={() => setDragging(null)}
          >
            <span aria-hidden className="muted">
              ▤
            </span>
            <div className="grow">
              <div className="doc-name">{d.name}</div>
              <div className="muted">
                {d.pageCount} page{d.pageCount === 1 ? '' : 's'} · {(d.size / 1024).toFixed(0)} KB · {formatDateTime(d.createdAt)}
                {d.signedFromRequestId && (
                  <>
                    {' · '}
                    <Link to={`/documents/requests/${d.signedFromRequestId}`}>signed copy (view the request)</Link>
                  </>
                )}
              </div>
            </div>
            <Button variant="ghost" onClick={() => onOpen(d)}>
              Preview
            </Button>
            {!d.signedFromRequestId && <Button onClick={() => onRequest(d)}>Request signatures</Button>}
            {editable && (
              <ActionsMenu
                label={`More actions for ${d.name}`}
                items={[
                  { label: 'Rename…', onSelect: () => actions.onRename(d) },
                  { label: 'Move to…', onSelect: () => actions.onMove(d) },
                  { label: 'Delete…', onSelect: () => actions.onDelete(d) },
                ]}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
