import { useState } from 'react';
import { useAction } from '../../ui/hooks';
import { uploadDocument } from './docs-api';
import { refreshDocuments } from './queries';

/** Uploads the chosen PDFs into the folder one after another; `progress` is the current one's (null: none). */
export function useDocumentUpload(folderId: string | null) {
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useAction(async (files: FileList) => {
    for (const file of Array.from(files)) {
      setProgress(0);
      await uploadDocument(file, folderId, setProgress);
    }
    setProgress(null);
    await refreshDocuments();
  });
  return { ...upload, progress };
}
