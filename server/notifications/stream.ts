import type { Request, Response } from 'express';
import type { Context } from '../context.js';
import type { DomainEvent } from '../events/bus.js';
import { countUnreadNotifications, readAtOf, type Notification, type Reader } from './notifications.js';
import { onArrival } from './arrivals.js';

const HEARTBEAT_MS = 20_000;

function isFor(event: DomainEvent, entityId: string, reader: Reader): Notification | null {
  if (event.type !== 'notification.created' || event.entityId !== entityId) return null;
  const n = (event.data as { notification?: Notification }).notification;
  if (!n) return null;
  return reader.userId === null || n.userId === null || n.userId === reader.userId ? n : null;
}

/**
 * Server-sent events for the open UI: `ready` (with the unread count) on connect, then one
 * `notification` event per new notification the reader can see (raised here or arrived by sync),
 * `unread` when the reader read some on another device; a comment line every 20 s keeps
 * proxies and the connection alive. Live only: missed events are read with GET /api/notifications.
 */
export function streamNotifications(ctx: Context, req: Request, res: Response, entityId: string, reader: Reader): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.write('retry: 3000\n\n');
  send('ready', { unread: reader.userId ? countUnreadNotifications(ctx, entityId, reader.userId) : null });

  const off = ctx.events.onLive((event) => {
    const n = isFor(event, entityId, reader);
    if (n) send('notification', n);
  });
  // Raised on another device, or read there: arrives by sync.
  const offArrivals = onArrival(ctx, (a) => {
    if (a.kind === 'notification' && a.notification.entityId === entityId && (reader.userId === null || a.notification.userId === null || a.notification.userId === reader.userId)) {
      send('notification', { ...a.notification, readAt: readAtOf(ctx, entityId, a.notification.id, reader) });
    }
    if (a.kind === 'read' && a.entityId === entityId && reader.userId !== null && a.userId === reader.userId) send('unread', { unread: countUnreadNotifications(ctx, entityId, reader.userId) });
  });
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const close = () => {
    clearInterval(heartbeat);
    off();
    offArrivals();
  };
  req.on('close', close);
  res.on('close', close);
}
