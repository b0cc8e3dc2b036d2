import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * The entity's support address as replies show it. Synced: a reply written on any device of the
 * entity goes out with the same From and signature.
 */
export const helpdeskMailboxes = sqliteTable('helpdesk_mailboxes', {
  entityId: text('entity_id').primaryKey(),
  address: text('address').notNull(),
  displayName: text('display_name'),
  signature: text('signature'),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Where incoming mail is fetched, and how fetching goes. Device-local: one install holds the
 * connection, and the password is sealed with this device's key.
 */
export const helpdeskMailboxImap = sqliteTable('helpdesk_mailbox_imap', {
  entityId: text('entity_id').primaryKey(),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  tls: integer('tls', { mode: 'boolean' }).notNull(),
  user: text('user').notNull(),
  passwordSealed: text('password_sealed').notNull(),
  state: text('state', { enum: ['connecting', 'idle', 'polling', 'backoff'] }).notNull(),
  /** Consecutive failed attempts (the backoff exponent). */
  failures: integer('failures').notNull().default(0),
  lastCheckedAt: text('last_checked_at'),
  lastError: text('last_error'),
  nextAttemptAt: text('next_attempt_at'),
  /** UIDVALIDITY of INBOX when `lastUid` was read (a bigint, kept as text). */
  uidValidity: text('uid_validity'),
  lastUid: integer('last_uid').notNull().default(0),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Every e-mail of a ticket's thread, ours and the customer's, by its Message-ID: threads
 * replies, dedupes incoming mail (unique per entity) and keeps our own mail from being ingested.
 * The id is name-based on the Message-ID, so two devices ingesting one e-mail make one row.
 */
export const helpdeskEmails = sqliteTable(
  'helpdesk_emails',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    ticketId: text('ticket_id').notNull(),
    /** The timeline message the e-mail is. */
    messageId: text('message_id').notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    /** The Message-ID header without angle brackets. */
    headerId: text('header_id').notNull(),
    fromAddress: text('from_address').notNull(),
    /** Attachments that were not kept (too large), in words. */
    attachmentsNote: text('attachments_note'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('helpdesk_emails_header_idx').on(t.entityId, t.headerId), index('helpdesk_emails_ticket_idx').on(t.entityId, t.ticketId, t.createdAt)],
);

/** Delivery of a public reply to the contact; its state changes after the message is written. */
export const helpdeskDeliveries = sqliteTable(
  'helpdesk_deliveries',
  {
    messageId: text('message_id').primaryKey(),
    entityId: text('entity_id').notNull(),
    ticketId: text('ticket_id').notNull(),
    to: text('to').notNull(),
    state: text('state', { enum: ['queued', 'sent', 'failed'] }).notNull(),
    error: text('error'),
    /** The mail outbox row that carries the current attempt. */
    mailId: text('mail_id').notNull(),
    sentAt: text('sent_at'),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('helpdesk_deliveries_ticket_idx').on(t.entityId, t.ticketId), index('helpdesk_deliveries_mail_idx').on(t.mailId)],
);

/** Files that came with an e-mail; the bytes are a blob named by sha256. */
export const helpdeskAttachments = sqliteTable(
  'helpdesk_attachments',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    ticketId: text('ticket_id').notNull(),
    messageId: text('message_id').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('helpdesk_attachments_ticket_idx').on(t.entityId, t.ticketId)],
);
