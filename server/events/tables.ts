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
    /**
     * Set when the event is for this device's own consumers only: another writer's, recorded here
     * again (`hosted`: a signer on the hosted pages), or about this device (`device`: its sync undid
     * a change). Null for the entity's events, which travel when it is linked. Webhooks skip the others.
     */
    replayOf: text('replay_of'),
  },
  (t) => [index('outbox_entity_idx').on(t.entityId, t.id)],
);

/** How far each consumer has processed the outbox. */
export const outboxCursors = sqliteTable('outbox_cursors', {
  consumer: text('consumer').primaryKey(),
  lastId: text('last_id').notNull(),
});

/**
 * The entity's events as synced facts (linked entities only): written with the outbox row, in
 * the writer's transaction, so an event reaches the hosted instance and the other devices in the
 * same group as the change that caused it. Webhook deliverers read it wherever they run.
 */
export const entityEvents = sqliteTable(
  'entity_events',
  {
    id: text('id').primaryKey(), // the outbox event's id: `webhook-id` everywhere
    entityId: text('entity_id').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(), // JSON, as the webhook body's `data`
    createdAt: text('created_at').notNull(),
    /** The device id that recorded it, or `hosted`. */
    origin: text('origin').notNull(),
  },
  (t) => [index('entity_events_entity_idx').on(t.entityId, t.createdAt)],
);
