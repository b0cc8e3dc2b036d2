import { api } from '../../api';
import { openExternal } from '../../desktop';
import type { Notification } from './types';

/** Marks a notification read and returns where to go: an app path for the router, or null. */
export async function openNotification(n: Notification): Promise<string | null> {
  if (!n.readAt) await api.post(`/api/notifications/${n.id}/read`);
  if (!n.link) return null;
  if (n.link.startsWith('/')) return n.link;
  openExternal(n.link);
  return null;
}
