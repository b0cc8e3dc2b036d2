import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/** Headers a mail may carry instead of the defaults (From: the server's mailFrom; a generated Message-ID). */
export interface MailHeaders {
  from?: { name: string | null; address: string };
  /** Without angle brackets. */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
}

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
    /** Sender and threading headers when the mail is not the server's own notice (helpdesk replies). */
    headers: text('headers', { mode: 'json' }).$type<MailHeaders>(),
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
