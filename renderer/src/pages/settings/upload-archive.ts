import { request } from '../../api';

/**
 * Sends a backup or export file as the raw body (the server streams it to disk and checks it):
 * the answer is its dry run and the upload id the restore or import then names.
 */
export function uploadArchive<T>(path: string, file: File): Promise<T> {
  return request<T>('POST', path, undefined, { raw: file, headers: { 'content-type': 'application/octet-stream' } });
}
