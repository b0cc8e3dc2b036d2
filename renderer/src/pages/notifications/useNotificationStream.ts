import { useEffect, useRef } from 'react';
import { apiUrl } from '../../api';
import { streamed, type Notification } from './data';

/**
 * Subscribes to /api/notifications/stream (server-sent events, cookie-authenticated; the entity
 * goes in the query because EventSource cannot send headers) and keeps the query cache in step:
 * the unread count and the bell's latest. The browser reconnects by itself.
 */
export function useNotificationStream(entityId: string | null | undefined, onNotification: (n: Notification) => void) {
  const ref = useRef(onNotification);
  useEffect(() => {
    ref.current = onNotification;
  });
  useEffect(() => {
    if (!entityId) return;
    const source = new EventSource(apiUrl('/api/notifications/stream', { query: { entityId } }));
    const unread = (e: Event) => streamed.unread(entityId, JSON.parse((e as MessageEvent).data).unread ?? 0);
    source.addEventListener('ready', unread);
    source.addEventListener('notification', (e) => {
      const n = JSON.parse((e as MessageEvent).data) as Notification;
      streamed.notification(entityId, n);
      ref.current(n);
    });
    // Read on another of this person's devices: the count follows.
    source.addEventListener('unread', unread);
    return () => source.close();
  }, [entityId]);
}
