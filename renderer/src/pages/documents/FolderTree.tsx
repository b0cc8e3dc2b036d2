import { useState, type DragEvent } from 'react';
import { DOCUMENT_DRAG_TYPE, FOLDER_ICONS, type Folder } from './types';

interface Props {
  folders: Folder[];
  selected: string | null;
  onSelect: (id: string | null) => void;
  /** A document dragged from the list onto a folder the caller may change: move it there. */
  onDropDocument?: (documentId: string, folder: Folder) => void;
}

function Branch({ folders, parentId, selected, onSelect, onDropDocument, over, setOver }: Props & { parentId: string | null; over: string | null; setOver: (id: string | null) => void }) {
  const children = folders.filter((f) => f.parentId === parentId || (parentId === null && f.parentId !== null && !folders.some((p) => p.id === f.parentId)));
  if (children.length === 0) return null;
  const accepts = (f: Folder, e: DragEvent) => Boolean(onDropDocument) && f.access === 'edit' && e.dataTransfer.types.includes(DOCUMENT_DRAG_TYPE);
  return (
    <ul className="folder-tree">
      {children.map((f) => (
        <li key={f.id}>
          <button
            className={`folder-row ${selected === f.id ? 'active' : ''} ${over === f.id ? 'drop-target' : ''}`}
            onClick={() => onSelect(f.id)}
            title={f.description || f.name}
            data-folder-id={f.id}
            onDragOver={(e) => {
              if (!accepts(f, e)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              setOver(f.id);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => {
              setOver(null);
              const id = e.dataTransfer.getData(DOCUMENT_DRAG_TYPE);
              if (!id || !accepts(f, e)) return;
              e.preventDefault();
              onDropDocument!(id, f);
            }}
          >
            <span className="folder-swatch" style={{ background: f.color }} aria-hidden />
            <span aria-hidden>{FOLDER_ICONS[f.icon] ?? '▤'}</span>
            <span>{f.name}</span>
            {f.access === 'view' && <span className="muted">(view)</span>}
          </button>
          <Branch folders={folders} parentId={f.id} selected={selected} onSelect={onSelect} onDropDocument={onDropDocument} over={over} setOver={setOver} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The folder tree with "All documents" on top; colours and icons as the folders carry them.
 * Documents can be dropped onto a folder to move them there.
 */
export function FolderTree({ folders, selected, onSelect, onDropDocument }: Props) {
  const [over, setOver] = useState<string | null>(null);
  return (
    <nav aria-label="Folders">
      <button className={`folder-row ${selected === null ? 'active' : ''}`} onClick={() => onSelect(null)}>
        <span aria-hidden>◫</span> All documents
      </button>
      <Branch folders={folders} parentId={null} selected={selected} onSelect={onSelect} onDropDocument={onDropDocument} over={over} setOver={setOver} />
    </nav>
  );
}
