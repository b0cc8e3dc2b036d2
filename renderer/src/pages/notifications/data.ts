import { skipToken, useQuery } from '@tanstack/react-query';
import { client, entityKey, invalidateEntity, keyOfEntity, queryClient, setEntityData, unwrap, useEntityQuery, type Schema } from '../../api';

export type Notification = Schema<'Notification'>;

/** The unread count is the live stream's (its first event carries it); nothing fetches it. */
const UNREAD = ['notifications', 'unread'];
/** The bell's panel: the latest few. */
const LATEST = ['notifications', 'latest'];
const LATEST_SHOWN = 10;

export function useUnreadCount(): number {
  return useQuery<number>({ queryKey: entityKey(...UNREAD), queryFn: skipToken }).data ?? 0;
}

export function useLatestNotifications(open: boolean) {
  return useEntityQuery(LATEST, () => unwrap(client.GET('/api/notifications', { params: { query: { limit: LATEST_SHOWN } } })), { enabled: open });
}

export function useNotificationList(unreadOnly: boolean, limit: number) {
  return useEntityQuery(['notifications', 'list', { unreadOnly, limit }], () => unwrap(client.GET('/api/notifications', { params: { query: { limit, unreadOnly: String(unreadOnly) } } })));
}

/** What the entity's live stream says: the unread count, and each new notification. */
export const streamed = {
  unread(entityId: string, unread: number) {
    queryClient.setQueryData(keyOfEntity(entityId, ...UNREAD), unread);
  },
  notification(entityId: string, n: Notification) {
    queryClient.setQueryData<number>(keyOfEntity(entityId, ...UNREAD), (u) => (u ?? 0) + 1);
    queryClient.setQueryData<Notification[]>(keyOfEntity(entityId, ...LATEST), (list) => (list ? [n, ...list].slice(0, LATEST_SHOWN) : list));
  },
};

/** Marks every notification read, here and in the lists shown. */
export async function markAllRead() {
  await unwrap(client.POST('/api/notifications/read-all'));
  setEntityData<number>(UNREAD, 0);
  const now = new Date().toISOString();
  setEntityData<Notification[]>(LATEST, (list) => list?.map((n) => ({ ...n, readAt: n.readAt ?? now })));
  await invalidateEntity('notifications', 'list');
}

/** Marks one read: the count goes down and the lists that show it refresh. */
export async function markRead(n: Notification) {
  if (n.readAt) return;
  await unwrap(client.POST('/api/notifications/{notificationId}/read', { params: { path: { notificationId: n.id } } }));
  setEntityData<number>(UNREAD, (u) => Math.max(0, (u ?? 0) - 1));
  await invalidateEntity('notifications');
}
