/** Documents' PDF downloads and uploads over the typed client (binary bodies, which `unwrap` alone does not name). */
import { ApiError, apiUrl, client, getCurrentEntity, unwrap } from '../../api';
import type { DocumentItem } from './types';

/** Where a PDF comes from: a stored document, a signer's view (by token), or a request's sealed copy. */
export type PdfSource = { document: string } | { signing: string } | { sealed: string };

export const pdfKey = (source: PdfSource) => JSON.stringify(source);

function getPdf(source: PdfSource) {
  const parseAs = 'arrayBuffer' as const;
  if ('document' in source) return client.GET('/api/documents/{documentId}/content', { params: { path: { documentId: source.document } }, parseAs });
  if ('signing' in source) return client.GET('/api/sign/{token}/document', { params: { path: { token: source.signing } }, parseAs });
  return client.GET('/api/documents/signature-requests/{requestId}/document', { params: { path: { requestId: source.sealed } }, parseAs });
}

/** A PDF with the file name the server gives it (Content-Disposition), e.g. "Lease (signed).pdf". */
export async function fetchPdfFile(source: PdfSource): Promise<{ data: ArrayBuffer; name: string | null }> {
  let disposition: string | null = null;
  const data = await unwrap(
    getPdf(source).then((answer) => {
      disposition = answer.response.headers.get('content-disposition');
      return answer as { data?: ArrayBuffer; error?: unknown; response: Response };
    }),
  );
  return { data, name: fileNameOf(disposition) };
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
    xhr.open('POST', apiUrl('/api/documents', { method: 'post', query: { entityId: null, name: file.name, folderId } }));
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
export async function downloadSignedPdf(source: PdfSource, documentName: string): Promise<void> {
  const file = await fetchPdfFile(source);
  downloadBlob(file.data, file.name ?? signedName(documentName));
}
