import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';

/**
 * Transactional outbox: a domain event is written in the same transaction as the change it
 * describes; consumers (webhooks, notifications, live UI, sync) read it afterwards.
 */
export const outbox = sqliteTable(
  'outbox',
  {
    id: text('id').primaryKey(), // UUIDv7: time-ordered, so id order is commit order per process
    entityId: text('entity_id').notNull(),
    type: text('type').notNull(),
    data: text('data', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('outbox_entity_idx').on(t.entityId, t.id)],
);

/** How far each consumer has processed the outbox. */
export const outboxCursors = sqliteTable('outbox_cursors', {
  consumer: text('consumer').primaryKey(),
  lastId: text('last_id').notNull(),
});
