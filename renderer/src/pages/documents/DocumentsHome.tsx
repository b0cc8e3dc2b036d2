import { useEffect, useRef, useState } from 'react';
import { client, entityKey, invalidateEntity, queryClient, unwrap } from '../../api';
import { Button, Card, EmptyState, ErrorBanner, Modal, Notice, Spinner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { useSession } from '../../session';
import { uploadDocument } from './docs-api';
import { DeleteDocumentModal, MoveDocumentModal, RenameDocumentModal } from './DocumentDialogs';
import { DocumentList } from './DocumentList';
import { FolderModal } from './FolderModal';
import { FolderTree } from './FolderTree';
import { PdfPages } from './PdfPages';
import { NewRequestModal } from './NewRequestModal';
import { ShareFolderModal } from './ShareFolderModal';
import { DOCUMENTS_KEY, FOLDERS_KEY, refreshDocuments, useDocuments, useFolders } from './queries';
import type { DocumentItem, Folder } from './types';

export function DocumentsHome() {
  const [folderId, setFolderId] = useState<string | null>(null);
  const [editing, setEditing] = useState<'new' | Folder | null>(null);
  const [preview, setPreview] = useState<DocumentItem | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  // The list follows the search box once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(t);
  }, [search]);
  const folders = useFolders();
  const docs = useDocuments(folderId, query);
  const reloadFolders = () => invalidateEntity(...FOLDERS_KEY);
  const current = folders.data?.find((f) => f.id === folderId) ?? null;
  const [renaming, setRenaming] = useState<DocumentItem | null>(null);
  const [moving, setMoving] = useState<DocumentItem | null>(null);
  const [deleting, setDeleting] = useState<DocumentItem | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const folderName = (id: string | null) => (id ? (folders.data?.find((f) => f.id === id)?.name ?? 'a folder') : 'no folder');
  // Changing a document needs the role's permission and, for a filed one, edit access to its folder.
  const session = useSession();
  const canEdit = (d: DocumentItem) => session.can('DOCUMENTS.EDIT') && (d.folderId === null || folders.data?.find((f) => f.id === d.folderId)?.access === 'edit');
  const moveTo = useAction(async (documentId: string, target: Folder) => {
    const d = docs.data?.find((x) => x.id === documentId);
    if (!d || d.folderId === target.id) return;
    await unwrap(client.PATCH('/api/documents/{documentId}', { params: { path: { documentId } }, body: { folderId: target.id } }));
    setMessage(`Moved “${d.name}” to ${target.name}.`);
    await refreshDocuments();
  });

  const upload = useAction(async (files: FileList) => {
    for (const file of Array.from(files)) {
      setProgress(0);
      await uploadDocument(file, folderId, setProgress);
    }
    setProgress(null);
    await refreshDocuments();
  });
  const reorder = useAction(async (ids: string[]) => {
    queryClient.setQueryData<DocumentItem[]>(entityKey(...DOCUMENTS_KEY, folderId, query), (list) => ids.map((id) => list!.find((d) => d.id === id)!));
    await unwrap(client.POST('/api/documents/folders/{folderId}/reorder', { params: { path: { folderId: folderId! } }, body: { documentIds: ids } }));
  });
  const removeFolder = useAction(async () => {
    if (!current || !confirm(`Delete folder "${current.name}"? Subfolders are removed and their documents move up one level.`)) return;
    await unwrap(client.DELETE('/api/documents/folders/{folderId}', { params: { path: { folderId: current.id }, query: { recursive: 'true' } } }));
    setFolderId(current.parentId);
    await reloadFolders();
  });
  const [requesting, setRequesting] = useState<DocumentItem | null>(null);
  const [sharing, setSharing] = useState<Folder | null>(null);

  return (
    <div className="docs-layout">
      <Card title="Folders" actions={<Button onClick={() => setEditing('new')}>New folder</Button>}>
        <ErrorBanner error={folders.error?.message} onRetry={() => void folders.refetch()} />
        {folders.data ? <FolderTree folders={folders.data} selected={folderId} onSelect={(id) => (setFolderId(id), setMessage(null))} onDropDocument={(id, f) => void moveTo.run(id, f)} /> : <Spinner />}
      </Card>
      <Card
        title={current ? current.name : 'All documents'}
        actions={
          <>
            {current?.access === 'edit' && (
              <>
                <Button variant="ghost" onClick={() => setEditing(current)}>
                  Edit folder
                </Button>
                <Button variant="ghost" onClick={() => setSharing(current)}>
                  Share
                </Button>
                <Button variant="ghost" busy={removeFolder.pending} onClick={() => void removeFolder.run()}>
                  Delete folder
                </Button>
              </>
            )}
            <Button variant="primary" busy={progress !== null} onClick={() => fileInput.current?.click()} disabled={current?.access === 'view'}>
              Upload PDF
            </Button>
            <input ref={fileInput} type="file" accept="application/pdf,.pdf" multiple hidden data-testid="upload-input" onChange={(e) => e.target.files?.length && void upload.run(e.target.files).then(() => (e.target.value = ''))} />
          </>
        }
      >
        {current?.description && <p className="muted">{current.description}</p>}
        {progress !== null && (
          <div className="progress" role="progressbar" aria-valuenow={Math.round(progress * 100)} aria-label="Upload progress">
            <div style={{ width: `${progress * 100}%` }} />
          </div>
        )}
        <div className="docs-search">
          <TextInput label={current ? `Search in ${current.name}` : 'Search documents'} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name contains…" maxLength={200} />
        </div>
        <ErrorBanner error={upload.error ?? docs.error?.message ?? reorder.error ?? removeFolder.error ?? moveTo.error} />
        {message && <Notice kind="success">{message}</Notice>}
        {current?.access === 'edit' && !query && <Notice>Drag documents to set their order in this folder, or onto another folder to move them.</Notice>}
        {docs.data === undefined ? (
          <Spinner />
        ) : docs.data.length === 0 ? (
          query ? (
            <EmptyState title="No matching documents" icon="▤">
              No document name contains “{query}”{current ? ' in this folder' : ''}.
            </EmptyState>
          ) : (
            <EmptyState title="No documents yet" icon="▤">
              Upload a PDF to store it here and send it for signature.
            </EmptyState>
          )
        ) : (
          <DocumentList
            documents={docs.data}
            canEdit={canEdit}
            onOpen={setPreview}
            onReorder={current?.access === 'edit' && !query ? (ids) => void reorder.run(ids) : undefined}
            onRequest={setRequesting}
            actions={{ onRename: setRenaming, onMove: setMoving, onDelete: setDeleting }}
          />
        )}
      </Card>
      {editing && (
        <FolderModal
          folder={editing === 'new' ? undefined : editing}
          folders={folders.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(f) => {
            setEditing(null);
            void reloadFolders();
            setFolderId(f.id);
          }}
        />
      )}
      {renaming && (
        <RenameDocumentModal
          document={renaming}
          onClose={() => setRenaming(null)}
          onDone={(d) => {
            setRenaming(null);
            setMessage(`Renamed to “${d.name}”.`);
            void refreshDocuments();
          }}
        />
      )}
      {moving && (
        <MoveDocumentModal
          document={moving}
          folders={folders.data ?? []}
          onClose={() => setMoving(null)}
          onDone={(d, f) => {
            setMoving(null);
            setMessage(`Moved “${d.name}” to ${f ? f.name : folderName(null)}.`);
            void refreshDocuments();
          }}
        />
      )}
      {deleting && (
        <DeleteDocumentModal
          document={deleting}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDeleting(null);
            setMessage(`Deleted “${deleting.name}”.`);
            void refreshDocuments();
          }}
        />
      )}
      {sharing && <ShareFolderModal folder={sharing} onClose={() => setSharing(null)} />}
      {requesting && <NewRequestModal document={requesting} onClose={() => setRequesting(null)} />}
      {preview && (
        <Modal title={preview.name} onClose={() => setPreview(null)}>
          {/* The pages scroll in a focusable region of their own, so the keyboard can scroll them too. */}
          <div className="preview-pages" tabIndex={0} role="region" aria-label={`Pages of ${preview.name}`}>
            <PdfPages source={{ document: preview.id }} width={560} />
          </div>
        </Modal>
      )}
    </div>
  );
}
