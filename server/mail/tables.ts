import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/** Headers a mail may carry instead of the defaults (From: the server's mailFrom; a generated Message-ID). */
export interface MailHeaders {
  from?: { name: string | null; address: string };
  /** Without angle brackets. */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
}

export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'dropped'] as const;

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
    /** `dropped`: not sent because its reason is gone (the request completed or was cancelled); `dropReason` says why. */
    status: text('status', { enum: MAIL_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: text('sent_at'),
    /** Where it went: this device's SMTP server or the hosted instance (null while queued). */
    via: text('via', { enum: ['smtp', 'hosted'] }),
    /**
     * One mail per purpose across devices (e.g. `completed:<request>:<address>`): the hosted
     * instance sends the first it gets under a key and drops the others.
     */
    purposeKey: text('purpose_key'),
    dropReason: text('drop_reason'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt), index('mail_outbox_entity_idx').on(t.entityId, t.id)],
);

/**
 * This install's own SMTP server, set in Settings → E-mail (one row, id 1). When present it is
 * used instead of `--smtp-url`. The password is sealed with the install's secrets.
 */
export const mailSettings = sqliteTable('mail_settings', {
  id: integer('id').primaryKey(),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  /** `tls`: TLS from the start (465); `starttls`: upgrade required (587); `none`: plain (a local relay). */
  security: text('security', { enum: ['tls', 'starttls', 'none'] }).notNull(),
  username: text('username'),
  passwordSealed: text('password_sealed'),
  fromAddress: text('from_address').notNull(),
  fromName: text('from_name'),
  updatedAt: text('updated_at').notNull(),
  updatedBy: text('updated_by'),
});
