import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import type { Auth } from '../auth/index.js';
import * as s from './schemas.js';
import { countUnreadNotifications, createNotification, listNotifications, markAllNotificationsRead, markNotificationRead, type Reader } from './notifications.js';
import { streamNotifications } from './stream.js';
import { listEmailPreferences, setEmailPreferences } from './email-prefs.js';

const tags = ['Notifications'];
const view: EntityAccess = { entity: 'QBH', permission: 'NOTIFICATIONS.VIEW', scope: 'read:notifications' };
/** Read state is personal: these routes need a signed-in member, not an API key. */
const inbox: EntityAccess = { entity: 'QBH', permission: 'NOTIFICATIONS.VIEW' };
const create: EntityAccess = { entity: 'QBH', permission: 'NOTIFICATIONS.CREATE', scope: 'write:notifications' };

const readerOf = (auth: Auth | null): Reader => (auth?.kind === 'session' ? { userId: auth.userId } : { userId: null });
const userIdOf = (auth: Auth | null) => (auth as Extract<Auth, { kind: 'session' }>).userId;

export const notificationRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/notifications',
      summary: 'List notifications, newest first',
      description: 'A member sees notifications addressed to them and entity-wide ones (userId null); an API key sees all of the entity. `limit` defaults to 20 (max 100); `unreadOnly=true` keeps unread ones.',
      tags,
      access: view,
      query: s.listNotificationsQuery,
      response: z.array(s.notificationSchema),
    },
    ({ ctx, entityId, auth, query }) => listNotifications(ctx, entityId, readerOf(auth), query),
  ),
  route(
    {
      method: 'post',
      path: '/api/notifications',
      summary: 'Create a notification',
      description: 'For one member (`userId`) or every member (no userId). Returns the notification (201) and pushes it to open UIs.',
      tags,
      access: create,
      body: s.createNotificationBody,
      response: s.notificationSchema,
      status: 201,
    },
    ({ ctx, entityId, body }) => createNotification(ctx, entityId, body),
  ),
  route(
    { method: 'get', path: '/api/notifications/unread-count', summary: "The signed-in member's unread count", tags, access: inbox, response: z.object({ unread: z.number().int() }) },
    ({ ctx, entityId, auth }) => ({ unread: countUnreadNotifications(ctx, entityId, userIdOf(auth)) }),
  ),
  route(
    {
      method: 'get',
      path: '/api/notifications/stream',
      summary: 'Live notifications (server-sent events)',
      description:
        'text/event-stream. Events: `ready` `{ unread }` on connect (unread is null for API keys), then `notification` with a Notification for each new one the caller can see (raised on this device or arriving by sync from another), `unread` `{ unread }` when the member read notifications on another device; `: ping` comments every 20 s. Authenticates like every other route (session cookie with entityId in the query for EventSource, or an API key with read:notifications).',
      tags,
      access: view,
      produces: 'text/event-stream',
    },
    ({ ctx, req, res, entityId, auth }) => streamNotifications(ctx, req, res, entityId, readerOf(auth)),
  ),
  route(
    { method: 'post', path: '/api/notifications/read-all', summary: 'Mark all of your notifications read', tags, access: inbox, response: z.object({ updated: z.number().int() }) },
    ({ ctx, entityId, auth }) => markAllNotificationsRead(ctx, entityId, userIdOf(auth)),
  ),
  route(
    {
      method: 'get',
      path: '/api/notifications/email-preferences',
      summary: 'Which kinds of notification also come by e-mail',
      description: "The signed-in member's choice per kind (or the kind's default). Notifications created through the API never send e-mail.",
      tags,
      access: inbox,
      response: z.array(s.emailPreferenceSchema),
    },
    ({ ctx, entityId, auth }) => listEmailPreferences(ctx, entityId, userIdOf(auth)),
  ),
  route(
    {
      method: 'put',
      path: '/api/notifications/email-preferences',
      summary: 'Choose which kinds of notification also come by e-mail',
      description: 'Kinds left out stay as they are; an unknown kind is refused (400) and nothing is changed. The choice is synced to every device of the member. The e-mail goes to the address of her account, once, from the device where the notification was raised.',
      tags,
      access: inbox,
      body: s.setEmailPreferencesBody,
      response: z.array(s.emailPreferenceSchema),
    },
    ({ ctx, entityId, auth, body }) => setEmailPreferences(ctx, entityId, userIdOf(auth), body.preferences),
  ),
  route(
    { method: 'post', path: '/api/notifications/{notificationId}/read', summary: 'Mark one notification read (idempotent)', tags, access: inbox, params: s.notificationParams, response: s.notificationSchema },
    ({ ctx, entityId, auth, params }) => markNotificationRead(ctx, entityId, userIdOf(auth), params.notificationId),
  ),
];
