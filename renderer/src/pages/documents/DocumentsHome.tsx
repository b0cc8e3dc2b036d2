import { useEffect, useState } from 'react';
import { client, invalidateEntity, unwrap } from '../../api';
import { Card, ErrorBanner, Notice, Spinner, TextInput, Button } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { useSession } from '../../session';
import { DocumentModals, type DocumentsDialog } from './DocumentModals';
import { DocumentResults } from './DocumentResults';
import { FolderActions, UploadProgress } from './FolderActions';
import { FolderTree } from './FolderTree';
import { FOLDERS_KEY, refreshDocuments, useFolders } from './queries';
import { showDocumentOrder, useDocumentPages } from './useDocumentPages';
import { useDocumentUpload } from './useDocumentUpload';
import type { DocumentItem, Folder } from './types';

/** What the search box says, once typing pauses: the list follows it. */
function useSettledSearch() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(t);
  }, [search]);
  return { search, setSearch, query };
}

export function DocumentsHome() {
  const [folderId, setFolderId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DocumentsDialog>(null);
  const [message, setMessage] = useState<string | null>(null);
  const { search, setSearch, query } = useSettledSearch();
  const folders = useFolders();
  const docs = useDocumentPages(folderId, query);
  const upload = useDocumentUpload(folderId);
  const reloadFolders = () => invalidateEntity(...FOLDERS_KEY);
  const current = folders.data?.find((f) => f.id === folderId) ?? null;
  // Changing a document needs the role's permission and, for a filed one, edit access to its folder.
  const session = useSession();
  const canEdit = (d: DocumentItem) => session.can('DOCUMENTS.EDIT') && (d.folderId === null || folders.data?.find((f) => f.id === d.folderId)?.access === 'edit');
  const open = (kind: 'rename' | 'move' | 'delete' | 'request' | 'preview') => (document: DocumentItem) => setDialog({ kind, document });
  const moveTo = useAction(async (documentId: string, target: Folder) => {
    const d = docs.rows?.find((x) => x.id === documentId);
    if (!d || d.folderId === target.id) return;
    await unwrap(client.PATCH('/api/documents/{documentId}', { params: { path: { documentId } }, body: { folderId: target.id } }));
    setMessage(`Moved “${d.name}” to ${target.name}.`);
    await refreshDocuments();
  });
  const reorder = useAction(async (ids: string[]) => {
    showDocumentOrder(folderId!, query, ids);
    await unwrap(client.POST('/api/documents/folders/{folderId}/reorder', { params: { path: { folderId: folderId! } }, body: { documentIds: ids } }));
    await refreshDocuments();
  });
  const removeFolder = useAction(async () => {
    if (!current || !confirm(`Delete folder "${current.name}"? Subfolders are removed and their documents move up one level.`)) return;
    await unwrap(client.DELETE('/api/documents/folders/{folderId}', { params: { path: { folderId: current.id }, query: { recursive: 'true' } } }));
    setFolderId(current.parentId);
    await reloadFolders();
  });
  const ordering = current?.access === 'edit' && !query;

  return (
    <div className="docs-layout">
      <Card title="Folders" actions={<Button onClick={() => setDialog({ kind: 'folder' })}>New folder</Button>}>
        <ErrorBanner error={folders.error?.message} onRetry={() => void folders.refetch()} />
        {folders.data ? <FolderTree folders={folders.data} selected={folderId} onSelect={(id) => (setFolderId(id), setMessage(null))} onDropDocument={(id, f) => void moveTo.run(id, f)} /> : <Spinner />}
      </Card>
      <Card
        title={current ? current.name : 'All documents'}
        actions={
          <FolderActions
            folder={current}
            onEdit={(folder) => setDialog({ kind: 'folder', folder })}
            onShare={(folder) => setDialog({ kind: 'share', folder })}
            onDelete={() => void removeFolder.run()}
            deleting={removeFolder.pending}
            uploading={upload.progress !== null}
            onUpload={upload.run}
          />
        }
      >
        {current?.description && <p className="muted">{current.description}</p>}
        <UploadProgress progress={upload.progress} />
        <div className="docs-search">
          <TextInput label={current ? `Search in ${current.name}` : 'Search documents'} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name contains…" maxLength={200} />
        </div>
        <ErrorBanner error={upload.error ?? docs.error?.message ?? reorder.error ?? removeFolder.error ?? moveTo.error} />
        {message && <Notice kind="success">{message}</Notice>}
        {ordering && <Notice>Drag documents to set their order in this folder, or onto another folder to move them.</Notice>}
        <DocumentResults
          rows={docs.rows}
          total={docs.total}
          query={query}
          inFolder={current !== null}
          more={{ has: docs.hasNextPage, loading: docs.isFetchingNextPage, load: () => void docs.fetchNextPage() }}
          canEdit={canEdit}
          onOpen={open('preview')}
          onReorder={ordering ? (ids) => void reorder.run(ids) : undefined}
          onRequest={open('request')}
          actions={{ onRename: open('rename'), onMove: open('move'), onDelete: open('delete') }}
        />
      </Card>
      <DocumentModals
        dialog={dialog}
        folders={folders.data ?? []}
        onClose={() => setDialog(null)}
        onDone={(m) => (setDialog(null), setMessage(m))}
        onFolderSaved={(f) => {
          setDialog(null);
          void reloadFolders();
          setFolderId(f.id);
        }}
      />
    </div>
  );
}
