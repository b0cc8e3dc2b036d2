/** Documents' data, loaded and cached with TanStack Query (keys under the current entity and `documents`). */
import { client, entityKey, getCurrentEntity, invalidateEntity, queryClient, unwrap, unwrapPage, useEntityPages, useEntityQuery } from '../../api';
import type { Field, RequestStatus, SigningView } from './types';

export const FOLDERS_KEY = ['documents', 'folders'];
export const DOCUMENTS_KEY = ['documents', 'list'];
export const requestKey = (requestId: string) => ['documents', 'request', requestId];
const fieldsKey = (requestId: string) => ['documents', 'request-fields', requestId];

export function useFolders() {
  return useEntityQuery(FOLDERS_KEY, () => unwrap(client.GET('/api/documents/folders')));
}

export const refreshDocuments = () => invalidateEntity(...DOCUMENTS_KEY);

export const REQUEST_PAGE_SIZE = 50;

/** The signature requests (of one status, or all), newest first, a page at a time. */
export function useRequestPages(status: RequestStatus | '') {
  return useEntityPages(['documents', 'requests', status], (cursor) =>
    unwrapPage(client.GET('/api/documents/signature-requests', { params: { query: { status: status || undefined, limit: REQUEST_PAGE_SIZE, cursor } } })),
  );
}

export function useRequest(requestId: string) {
  return useEntityQuery(requestKey(requestId), () => unwrap(client.GET('/api/documents/signature-requests/{requestId}', { params: { path: { requestId } } })));
}
export const refreshRequest = (requestId: string) => invalidateEntity(...requestKey(requestId));

export function useRequestFields(requestId: string) {
  return useEntityQuery(fieldsKey(requestId), () => unwrap(client.GET('/api/documents/signature-requests/{requestId}/fields', { params: { path: { requestId } } })));
}
/**
 * Shows fields at once (a drag, a placed or removed field) before or without a refetch. A fetch
 * still under way is cancelled: its answer, older than this edit, would put the field back.
 */
export function setRequestFields(requestId: string, update: (fields: Field[] | undefined) => Field[] | undefined) {
  void queryClient.cancelQueries({ queryKey: entityKey(...fieldsKey(requestId)) });
  queryClient.setQueryData<Field[]>(entityKey(...fieldsKey(requestId)), update);
}
/** The fields as the editor last set them (a second key press before the next render sees the first). */
export const requestFieldsNow = (requestId: string) => queryClient.getQueryData<Field[]>(entityKey(...fieldsKey(requestId)));
export const refreshRequestFields = (requestId: string) => invalidateEntity(...fieldsKey(requestId));

export function useParties() {
  return useEntityQuery(['documents', 'signature-parties'], () => unwrap(client.GET('/api/documents/signature-parties')));
}

export function useMailStatus() {
  return useEntityQuery(['mail', 'status'], () => unwrap(client.GET('/api/mail/status')));
}

/** The audit trail's hash chain, checked again whenever it grows. */
export function useAuditVerification(requestId: string, entries: number) {
  return useEntityQuery(['documents', 'audit-verify', requestId, entries], () => unwrap(client.GET('/api/documents/signature-requests/{requestId}/audit-trail/verify', { params: { path: { requestId } } })));
}

export function useFolderGrants(folderId: string) {
  return useEntityQuery(['documents', 'grants', folderId], () => unwrap(client.GET('/api/documents/folders/{folderId}/grants', { params: { path: { folderId } } })));
}

export function useMembers() {
  return useEntityQuery(['members'], () => unwrap(client.GET('/api/entities/{entityId}/members', { params: { path: { entityId: getCurrentEntity() ?? '' } } })));
}

/** What a signer sees (by token); `inPerson` when a member hosts the signing on this device. */
export function useSigningView(token: string, inPerson: boolean) {
  return useEntityQuery(['sign', token, inPerson], () => unwrap(client.GET('/api/sign/{token}', { params: { path: { token }, query: inPerson ? { inPerson: 'true' } : {} } })));
}
export function setSigningView(token: string, inPerson: boolean, view: SigningView) {
  queryClient.setQueryData(entityKey('sign', token, inPerson), view);
}
