import { FOLDER_ICONS, type Folder } from './types';

interface Props {
  folders: Folder[];
  selected: string | null;
  onSelect: (id: string | null) => void;
}

function Branch({ folders, parentId, selected, onSelect }: Props & { parentId: string | null }) {
  const children = folders.filter((f) => f.parentId === parentId || (parentId === null && f.parentId !== null && !folders.some((p) => p.id === f.parentId)));
  if (children.length === 0) return null;
  return (
    <ul className="folder-tree">
      {children.map((f) => (
        <li key={f.id}>
          <button className={`folder-row ${selected === f.id ? 'active' : ''}`} onClick={() => onSelect(f.id)} title={f.description || f.name}>
            <span className="folder-swatch" style={{ background: f.color }} aria-hidden />
            <span aria-hidden>{FOLDER_ICONS[f.icon] ?? '▤'}</span>
            <span>{f.name}</span>
            {f.access === 'view' && <span className="muted">(view)</span>}
          </button>
          <Branch folders={folders} parentId={f.id} selected={selected} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  );
}

/** The folder tree with "All documents" on top; colours and icons as the folders carry them. */
export function FolderTree({ folders, selected, onSelect }: Props) {
  return (
    <nav aria-label="Folders">
      <button className={`folder-row ${selected === null ? 'active' : ''}`} onClick={() => onSelect(null)}>
        <span aria-hidden>◫</span> All documents
      </button>
      <Branch folders={folders} parentId={null} selected={selected} onSelect={onSelect} />
    </nav>
  );
}
