import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/**
 * Outgoing e-mail, queued inside the transaction of the change that causes it and sent by a
 * background loop (retried with backoff). The body holds signing links, so it is sealed.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    bodySealed: text('body_sealed').notNull(),
    /** What the mail is about, e.g. { kind: 'signing_invite', requestId, signerId }. */
    ref: text('ref', { mode: 'json' }).notNull().$type<Record<string, string>>(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: text('sent_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt), index('mail_outbox_entity_idx').on(t.entityId, t.id)],
);
