import { client, invalidateEntity, unwrap, useEntityQuery } from '../../api';

export function useMembers(entityId: string) {
  return useEntityQuery(['members'], () => unwrap(client.GET('/api/entities/{entityId}/members', { params: { path: { entityId } } })));
}

/** The hosted instance's invitations: only a linked business has them, and only managers see them. */
export function useInvitations(entityId: string, enabled: boolean) {
  return useEntityQuery(['sync', 'invitations'], () => unwrap(client.GET('/api/sync/invitations', { params: { query: { entityId } } })), { enabled });
}

export function reloadPeople() {
  return Promise.all([invalidateEntity('members'), invalidateEntity('sync', 'invitations')]);
}
