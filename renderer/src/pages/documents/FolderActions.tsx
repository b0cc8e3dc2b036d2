import { useRef } from 'react';
import { Button } from '../../ui/components';
import type { Folder } from './types';

/** The documents card's actions: the open folder's (edit, share, delete, for who may edit it) and Upload PDF. */
export function FolderActions({
  folder,
  onEdit,
  onShare,
  onDelete,
  deleting,
  uploading,
  onUpload,
}: {
  folder: Folder | null;
  onEdit: (f: Folder) => void;
  onShare: (f: Folder) => void;
  onDelete: () => void;
  deleting: boolean;
  uploading: boolean;
  onUpload: (files: FileList) => Promise<unknown>;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      {folder?.access === 'edit' && (
        <>
          <Button variant="ghost" onClick={() => onEdit(folder)}>
            Edit folder
          </Button>
          <Button variant="ghost" onClick={() => onShare(folder)}>
            Share
          </Button>
          <Button variant="ghost" busy={deleting} onClick={onDelete}>
            Delete folder
          </Button>
        </>
      )}
      <Button variant="primary" busy={uploading} onClick={() => fileInput.current?.click()} disabled={folder?.access === 'view'}>
        Upload PDF
      </Button>
      <input ref={fileInput} type="file" accept="application/pdf,.pdf" multiple hidden data-testid="upload-input" onChange={(e) => e.target.files?.length && void onUpload(e.target.files).then(() => (e.target.value = ''))} />
    </>
  );
}

export function UploadProgress({ progress }: { progress: number | null }) {
  if (progress === null) return null;
  return (
    <div className="progress" role="progressbar" aria-valuenow={Math.round(progress * 100)} aria-label="Upload progress">
      <div style={{ width: `${progress * 100}%` }} />
    </div>
  );
}
