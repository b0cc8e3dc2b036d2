import { sqliteTable, text, index, primaryKey } from 'drizzle-orm/sqlite-core';

/** A notification for one member (userId) or for every member of the entity (userId null). */
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

/** Read state per reader, so an entity-wide notification is read or unread for each member. */
export const notificationReads = sqliteTable(
  'notification_reads',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    readAt: text('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);
