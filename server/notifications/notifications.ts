import { and, count, desc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { roleOf } from '../auth/index.js';
import { notificationReads, notifications } from './tables.js';
import type { CreateNotificationInput } from './schemas.js';
import { nameBasedId } from '../db/ids.js';
import { queueNotificationMail } from './notification-mail.js';

type NotificationRow = typeof notifications.$inferSelect;
export type Notification = NotificationRow & { readAt: string | null };

/** Who is reading: a member (their inbox: own and entity-wide) or an API key (the whole entity). */
export type Reader = { userId: string } | { userId: null };

/** The e-mail that goes with a notification, when its recipient wants one (see email-prefs.ts). */
export interface NotificationMail {
  subject: string;
  text: string;
  html: string;
  /** What the mail is about, for the mail queue (added to `{ kind: 'notification', … }`). */
  ref?: Record<string, string>;
  /** One mail per purpose and person, whichever device queues it (the hosted instance sends one per key). */
  purposeKey?: string;
}

export interface NotifyInput {
  entityId: string;
  userId: string | null;
  type: string;
  title: string;
  body?: string | null;
  link?: string | null;
  /**
   * What makes this notification one of a kind, when two devices could raise it (a request completed
   * by whichever device saw it first): its id is derived from it, so both raise the same row, merged
   * by sync, and a device that already has it (from another device) does not raise it again.
   */
  key?: string;
  /** The e-mail's content per recipient name, when not the title and body. */
  /** The mail for one recipient, or null when she gets the news by another mail already. */
  mail?: (recipient: { name: string; email: string }) => NotificationMail | null;
}

/** Writes a notification, its `notification.created` event and the e-mails its recipients want; call inside the caller's transaction. */
export function notify(ctx: Context, tx: Tx, input: NotifyInput): Notification {
  const id = input.key ? nameBasedId('notification', input.entityId, input.userId ?? '', input.type, input.key) : ctx.ids.next();
  const existing = input.key ? tx.select().from(notifications).where(eq(notifications.id, id)).get() : undefined;
  if (existing) return { ...existing, readAt: null };
  const row: NotificationRow = {
    id,
    entityId: input.entityId,
    userId: input.userId,
    type: input.type,
    title: input.title,
    body: input.body ?? null,
    link: input.link ?? null,
    createdAt: nowIso(ctx),
  };
  tx.insert(notifications).values(row).run();
  const notification = { ...row, readAt: null };
  ctx.events.record(tx, { entityId: input.entityId, type: 'notification.created', data: { notification } });
  queueNotificationMail(ctx, tx, row, input.mail);
  return notification;
}

export function createNotification(ctx: Context, entityId: string, input: CreateNotificationInput): Notification {
  const userId = input.userId ?? null;
  if (userId && !roleOf(ctx, entityId, userId)) throw new BadRequestError('userId: must be a member of this entity');
  return write(ctx, (tx) => notify(ctx, tx, { entityId, userId, type: input.type, title: input.title, body: input.body, link: input.link }));
}

function visibleTo(entityId: string, reader: Reader): SQL | undefined {
  const inEntity = eq(notifications.entityId, entityId);
  return reader.userId ? and(inEntity, or(isNull(notifications.userId), eq(notifications.userId, reader.userId))) : inEntity;
}

/** The read-state row that counts for this reader: their own, or for API keys the recipient's. */
function readJoin(reader: Reader): SQL {
  return reader.userId
    ? and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, reader.userId))!
    : and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, notifications.userId))!;
}

function selectVisible(ctx: Context, entityId: string, reader: Reader, unreadOnly: boolean, notificationId?: string) {
  return ctx.db
    .select({ n: notifications, readAt: notificationReads.readAt })
    .from(notifications)
    .leftJoin(notificationReads, readJoin(reader))
    .where(and(visibleTo(entityId, reader), unreadOnly ? isNull(notificationReads.readAt) : undefined, notificationId ? eq(notifications.id, notificationId) : undefined));
}

export function listNotifications(ctx: Context, entityId: string, reader: Reader, q: { limit: number; unreadOnly: boolean }): Notification[] {
  return selectVisible(ctx, entityId, reader, q.unreadOnly)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.limit)
    .all()
    .map(({ n, readAt }) => ({ ...n, readAt: readAt ?? null }));
}

export function countUnreadNotifications(ctx: Context, entityId: string, userId: string): number {
  return ctx.db
    .select({ n: count() })
    .from(notifications)
    .leftJoin(notificationReads, readJoin({ userId }))
    .where(and(visibleTo(entityId, { userId }), isNull(notificationReads.readAt)))
    .get()!.n;
}

export function markNotificationRead(ctx: Context, entityId: string, userId: string, notificationId: string): Notification {
  const found = selectVisible(ctx, entityId, { userId }, false, notificationId).get();
  if (!found) throw new NotFoundError('Notification not found');
  if (found.readAt) return { ...found.n, readAt: found.readAt };
  const readAt = nowIso(ctx);
  ctx.db.insert(notificationReads).values({ notificationId, userId, entityId, readAt }).onConflictDoNothing().run();
  return { ...found.n, readAt };
}

export function markAllNotificationsRead(ctx: Context, entityId: string, userId: string): { updated: number } {
  const readAt = nowIso(ctx);
  const result = ctx.sqlite
    .prepare(
      `INSERT OR IGNORE INTO notification_reads (notification_id, user_id, entity_id, read_at)
       SELECT n.id, ?, n.entity_id, ? FROM notifications n
       WHERE n.entity_id = ? AND (n.user_id IS NULL OR n.user_id = ?)
         AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.notification_id = n.id AND r.user_id = ?)`,
    )
    .run(userId, readAt, entityId, userId, userId);
  return { updated: result.changes };
}


/** When this reader read a notification (for API keys: its recipient), or null. */
export function readAtOf(ctx: Context, entityId: string, notificationId: string, reader: Reader): string | null {
  return selectVisible(ctx, entityId, reader, false, notificationId).get()?.readAt ?? null;
}
