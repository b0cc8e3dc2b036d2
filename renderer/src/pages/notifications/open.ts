import { openExternal } from '../../desktop';
import { markRead, type Notification } from './data';

/** Marks a notification read and returns where to go: an app path for the router, or null. */
export async function openNotification(n: Notification): Promise<string | null> {
  await markRead(n);
  if (!n.link) return null;
  if (n.link.startsWith('/')) return n.link;
  openExternal(n.link);
  return null;
}
