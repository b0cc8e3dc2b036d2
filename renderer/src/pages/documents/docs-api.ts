import { ApiError, getCurrentEntity } from '../../api';
import type { DocumentItem } from './types';

/** Fetches a PDF the API serves (document content, sealed document, signer's copy). */
export async function fetchPdf(path: string): Promise<ArrayBuffer> {
  return (await fetchPdfFile(path)).data;
}

/** A PDF with the file name the server gives it (Content-Disposition), e.g. "Lease (signed).pdf". */
export async function fetchPdfFile(path: string): Promise<{ data: ArrayBuffer; name: string | null }> {
  const headers: Record<string, string> = {};
  const entity = getCurrentEntity();
  if (entity && !path.startsWith('/api/sign/')) headers['x-entity-id'] = entity;
  const res = await fetch(path, { headers, credentials: 'same-origin' });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  return { data: await res.arrayBuffer(), name: fileNameOf(res.headers.get('content-disposition')) };
}

function fileNameOf(disposition: string | null): string | null {
  const m = disposition ? /filename\*=UTF-8''([^;]+)/i.exec(disposition) : null;
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** Uploads a PDF with progress (XHR: fetch cannot report upload progress). */
export function uploadDocument(file: File, folderId: string | null, onProgress: (fraction: number) => void): Promise<DocumentItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const qs = new URLSearchParams({ name: file.name });
    if (folderId) qs.set('folderId', folderId);
    xhr.open('POST', `/api/documents?${qs}`);
    xhr.setRequestHeader('content-type', 'application/pdf');
    const entity = getCurrentEntity();
    if (entity) xhr.setRequestHeader('x-entity-id', entity);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || '{}');
      if (xhr.status === 201) resolve(body);
      else reject(new ApiError(xhr.status, body.error ?? 'Upload failed'));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Cannot reach the Bureau server'));
    xhr.send(file);
  });
}

export function downloadBlob(data: ArrayBuffer, name: string) {
  const url = URL.createObjectURL(new Blob([data], { type: 'application/pdf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}


/** "Lease.pdf" → "Lease (signed).pdf": the sealed PDF's name, as the server files and sends it. */
export function signedName(name: string): string {
  return `${name.replace(/\.pdf$/i, '')} (signed).pdf`;
}

/** Downloads the sealed PDF under the name the server gives it ("<name> (signed).pdf"). */
export async function downloadSignedPdf(path: string, documentName: string): Promise<void> {
  const file = await fetchPdfFile(path);
  downloadBlob(file.data, file.name ?? signedName(documentName));
}
