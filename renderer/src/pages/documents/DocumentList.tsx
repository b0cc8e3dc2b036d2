import { useState } from 'react';
import { Button } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import type { DocumentItem } from './types';

/** Documents of a folder; when `onReorder` is set, rows can be dragged into a new order. */
export function DocumentList({ documents, onOpen, onReorder, onRequest }: { documents: DocumentItem[]; onOpen: (d: DocumentItem) => void; onReorder?: (ids: string[]) => void; onRequest: (d: DocumentItem) => void }) {
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
      {documents.map((d) => (
        <li
          key={d.id}
          className={`doc-item ${over === d.id ? 'drag-over' : ''}`}
          draggable={Boolean(onReorder)}
          data-testid="doc-item"
          onDragStart={(e) => {
            setDragging(d.id);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', d.id);
          }}
          onDragOver={(e) => {
            if (!onReorder) return;
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
          <span aria-hidden className="muted">▤</span>
          <div className="grow">
            <div className="doc-name">{d.name}</div>
            <div className="muted">
              {d.pageCount} page{d.pageCount === 1 ? '' : 's'} · {(d.size / 1024).toFixed(0)} KB · {formatDateTime(d.createdAt)}
            </div>
          </div>
          <Button variant="ghost" onClick={() => onOpen(d)}>
            Preview
          </Button>
          <Button onClick={() => onRequest(d)}>Request signatures</Button>
        </li>
      ))}
    </ul>
  );
}
