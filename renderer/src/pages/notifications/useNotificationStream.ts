import { useEffect, useRef } from 'react';
import type { Notification } from './types';

/**
 * Subscribes to /api/notifications/stream (server-sent events, cookie-authenticated; the entity
 * goes in the query because EventSource cannot send headers). The browser reconnects by itself.
 */
export function useNotificationStream(entityId: string | null | undefined, handlers: { onReady: (unread: number) => void; onNotification: (n: Notification) => void }) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!entityId) return;
    const source = new EventSource(`/api/notifications/stream?entityId=${encodeURIComponent(entityId)}`);
    source.addEventListener('ready', (e) => ref.current.onReady(JSON.parse((e as MessageEvent).data).unread ?? 0));
    source.addEventListener('notification', (e) => ref.current.onNotification(JSON.parse((e as MessageEvent).data)));
    // Read on another of this person's devices: the count follows.
    source.addEventListener('unread', (e) => ref.current.onReady(JSON.parse((e as MessageEvent).data).unread ?? 0));
    return () => source.close();
  }, [entityId]);
}
