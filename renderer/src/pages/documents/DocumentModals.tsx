import { Modal } from '../../ui/components';
import { DeleteDocumentModal, MoveDocumentModal, RenameDocumentModal } from './DocumentDialogs';
import { FolderModal } from './FolderModal';
import { NewRequestModal } from './NewRequestModal';
import { PdfPages } from './PdfPages';
import { ShareFolderModal } from './ShareFolderModal';
import { refreshDocuments } from './queries';
import type { DocumentItem, Folder } from './types';

/** The one dialog open on the documents page, if any. */
export type DocumentsDialog =
  | { kind: 'rename' | 'move' | 'delete' | 'request' | 'preview'; document: DocumentItem }
  | { kind: 'folder'; folder?: Folder }
  | { kind: 'share'; folder: Folder }
  | null;

/** Shows the open dialog; a change it makes is said in `onDone`'s message and the list is read again. */
export function DocumentModals({
  dialog,
  folders,
  onClose,
  onDone,
  onFolderSaved,
}: {
  dialog: DocumentsDialog;
  folders: Folder[];
  onClose: () => void;
  onDone: (message: string) => void;
  onFolderSaved: (f: Folder) => void;
}) {
  if (!dialog) return null;
  const done = (message: string) => {
    onDone(message);
    void refreshDocuments();
  };
  switch (dialog.kind) {
    case 'folder':
      return <FolderModal folder={dialog.folder} folders={folders} onClose={onClose} onSaved={onFolderSaved} />;
    case 'share':
      return <ShareFolderModal folder={dialog.folder} onClose={onClose} />;
    case 'rename':
      return <RenameDocumentModal document={dialog.document} onClose={onClose} onDone={(d) => done(`Renamed to “${d.name}”.`)} />;
    case 'move':
      return <MoveDocumentModal document={dialog.document} folders={folders} onClose={onClose} onDone={(d, f) => done(`Moved “${d.name}” to ${f ? f.name : 'no folder'}.`)} />;
    case 'delete':
      return <DeleteDocumentModal document={dialog.document} onClose={onClose} onDone={() => done(`Deleted “${dialog.document.name}”.`)} />;
    case 'request':
      return <NewRequestModal document={dialog.document} onClose={onClose} />;
    case 'preview':
      return (
        <Modal title={dialog.document.name} onClose={onClose}>
          {/* The pages scroll in a focusable region of their own, so the keyboard can scroll them too. */}
          <div className="preview-pages" tabIndex={0} role="region" aria-label={`Pages of ${dialog.document.name}`}>
            <PdfPages source={{ document: dialog.document.id }} width={560} />
          </div>
        </Modal>
      );
  }
}
