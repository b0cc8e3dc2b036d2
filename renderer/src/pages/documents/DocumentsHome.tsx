import { useRef, useState } from 'react';
import { api } from '../../api';
import { Button, Card, EmptyState, ErrorBanner, Modal, Notice, Spinner } from '../../ui/components';
import { useAction, useAsync } from '../../ui/hooks';
import { uploadDocument } from './docs-api';
import { DocumentList } from './DocumentList';
import { FolderModal } from './FolderModal';
import { FolderTree } from './FolderTree';
import { PdfPages } from './PdfPages';
import { NewRequestModal } from './NewRequestModal';
import { ShareFolderModal } from './ShareFolderModal';
import type { DocumentItem, Folder } from './types';

export function DocumentsHome() {
  const [folderId, setFolderId] = useState<string | null>(null);
  const [editing, setEditing] = useState<'new' | Folder | null>(null);
  const [preview, setPreview] = useState<DocumentItem | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const folders = useAsync(() => api.get<Folder[]>('/api/documents/folders'));
  const docs = useAsync(() => api.get<DocumentItem[]>('/api/documents', folderId ? { folderId } : {}), [folderId]);
  const current = folders.data?.find((f) => f.id === folderId) ?? null;

  const upload = useAction(async (files: FileList) => {
    for (const file of Array.from(files)) {
      setProgress(0);
      await uploadDocument(file, folderId, setProgress);
    }
    setProgress(null);
    await docs.reload();
  });
  const reorder = useAction(async (ids: string[]) => {
    docs.setData((list) => ids.map((id) => list!.find((d) => d.id === id)!));
    await api.post(`/api/documents/folders/${folderId}/reorder`, { documentIds: ids });
  });
  const removeFolder = useAction(async () => {
    if (!current || !confirm(`Delete folder "${current.name}"? Subfolders are removed and their documents move up one level.`)) return;
    await api.delete(`/api/documents/folders/${current.id}`, undefined, { recursive: true });
    setFolderId(current.parentId);
    await folders.reload();
  });
  const [requesting, setRequesting] = useState<DocumentItem | null>(null);
  const [sharing, setSharing] = useState<Folder | null>(null);

  return (
    <div className="docs-layout">
      <Card title="Folders" actions={<Button onClick={() => setEditing('new')}>New folder</Button>}>
        <ErrorBanner error={folders.error} onRetry={() => void folders.reload()} />
        {folders.data ? <FolderTree folders={folders.data} selected={folderId} onSelect={setFolderId} /> : <Spinner />}
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
        <ErrorBanner error={upload.error ?? docs.error ?? reorder.error ?? removeFolder.error} />
        {current && <Notice>Drag documents to set their order in this folder.</Notice>}
        {docs.data === undefined ? (
          <Spinner />
        ) : docs.data.length === 0 ? (
          <EmptyState title="No documents yet" icon="▤">
            Upload a PDF to store it here and send it for signature.
          </EmptyState>
        ) : (
          <DocumentList documents={docs.data} onOpen={setPreview} onReorder={current?.access === 'edit' ? (ids) => void reorder.run(ids) : undefined} onRequest={setRequesting} />
        )}
      </Card>
      {editing && (
        <FolderModal
          folder={editing === 'new' ? undefined : editing}
          folders={folders.data ?? []}
          parentId={folderId}
          onClose={() => setEditing(null)}
          onSaved={(f) => {
            setEditing(null);
            void folders.reload();
            setFolderId(f.id);
          }}
        />
      )}
      {sharing && <ShareFolderModal folder={sharing} onClose={() => setSharing(null)} />}
      {requesting && <NewRequestModal document={requesting} onClose={() => setRequesting(null)} />}
      {preview && (
        <Modal title={preview.name} onClose={() => setPreview(null)}>
          {/* The pages scroll in a focusable region of their own, so the keyboard can scroll them too. */}
          <div className="preview-pages" tabIndex={0} role="region" aria-label={`Pages of ${preview.name}`}>
            <PdfPages path={`/api/documents/${preview.id}/content`} width={560} />
          </div>
        </Modal>
      )}
    </div>
  );
}
