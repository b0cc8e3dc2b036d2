import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';

/**
 * A notification for one member (userId) or for every member of the entity (userId null). Raised
 * once, on the device where the change began, and synced to every device of the entity: each
 * shows the ones its signed-in people can see.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    userId: text('user_id'),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body'),
    link: text('link'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('notifications_entity_idx').on(t.entityId, t.createdAt, t.id), index('notifications_user_idx').on(t.entityId, t.userId)],
);

/** Read state per reader, so an entity-wide notification is read or unread for each member; synced, so read on one device is read on all. */
export const notificationReads = sqliteTable(
  'notification_reads',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    entityId: text('entity_id').notNull(),
    readAt: text('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);

/** Whether a person also gets an e-mail for a kind of notification (absent: the kind's default). Hers, on all her devices. */
export const notificationEmailPrefs = sqliteTable(
  'notification_email_prefs',
  {
    entityId: text('entity_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind').notNull(),
    email: integer('email', { mode: 'boolean' }).notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.userId, t.kind] })],
);
