import { useState } from 'react';
import { client, unwrap } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { folderOptions } from './folder-options';
import type { DocumentItem, Folder } from './types';

/** Renames a document. */
export function RenameDocumentModal({ document, onClose, onDone }: { document: DocumentItem; onClose: () => void; onDone: (d: DocumentItem) => void }) {
  const [name, setName] = useState(document.name);
  const save = useAction(async () => onDone(await unwrap(client.PATCH('/api/documents/{documentId}', { params: { path: { documentId: document.id } }, body: { name } }))));
  const formId = `rename-${document.id}`;
  return (
    <Modal
      title={`Rename “${document.name}”`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" busy={save.pending} disabled={!name.trim()}>
            Rename
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <ErrorBanner error={save.error} />
        <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </form>
    </Modal>
  );
}

/** Moves a document to another folder, or out of every folder. */
export function MoveDocumentModal({ document, folders, onClose, onDone }: { document: DocumentItem; folders: Folder[]; onClose: () => void; onDone: (d: DocumentItem, folder: Folder | null) => void }) {
  const [target, setTarget] = useState(document.folderId ?? '');
  const move = useAction(async () => onDone(await unwrap(client.PATCH('/api/documents/{documentId}', { params: { path: { documentId: document.id } }, body: { folderId: target || null } })), folders.find((f) => f.id === target) ?? null));
  const formId = `move-${document.id}`;
  return (
    <Modal
      title={`Move “${document.name}”`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" busy={move.pending} disabled={target === (document.folderId ?? '')}>
            Move
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={(e) => (e.preventDefault(), void move.run())}>
        <ErrorBanner error={move.error} />
        <SelectInput label="Move to" value={target} onChange={(e) => setTarget(e.target.value)} options={[{ value: '', label: 'No folder (top level)' }, ...folderOptions(folders, { editableOnly: true })]} />
      </form>
    </Modal>
  );
}

/** Asks before deleting a document; a document a signature request uses is refused by the server, and the reason shown. */
export function DeleteDocumentModal({ document, onClose, onDone }: { document: DocumentItem; onClose: () => void; onDone: () => void }) {
  const remove = useAction(async () => {
    await unwrap(client.DELETE('/api/documents/{documentId}', { params: { path: { documentId: document.id } } }));
    onDone();
  });
  return (
    <Modal
      title="Delete document?"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={remove.pending} onClick={() => void remove.run()}>
            Delete
          </Button>
        </>
      }
    >
      <ErrorBanner error={remove.error} />
      <p>
        “{document.name}” will be removed from Documents. This cannot be undone.
      </p>
    </Modal>
  );
}
