// The hosted instance's tables (drizzle pg-core): the same schema and SQL on PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** People with a hosted account. The password hash is made here; a device's local hash never travels. */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: at('created_at').notNull(),
});

/**
 * A sign-up waiting for its e-mail to be confirmed: the account is made only when the code mailed
 * to the address comes back (with the same password), so nobody can take an address they cannot
 * read. One per address; asking again replaces it (new code, new password). The code is kept as
 * its SHA-256 and dies after 30 minutes, its first use or a few wrong tries.
 */
export const signups = pgTable('signups', {
  email: text('email').primaryKey(),
  name: text('name'),
  /** The desktop user's id, taken by the account when free (as on a direct sign-up). */
  accountId: uuid('account_id'),
  passwordHash: text('password_hash').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull(),
});

/** A linked entity. `lastSeq` is the last seq handed out; its row lock orders pushes. */
export const entities = pgTable('entities', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  /**
   * The log no longer holds changes up to this seq (compaction): a device whose cursor is older
   * must take a new snapshot (`mustRefetch`). 0 while nothing has been compacted.
   */
  compactedThrough: bigint('compacted_through', { mode: 'number' }).notNull().default(0),
  createdAt: at('created_at').notNull(),
});

export const members = pgTable(
  'members',
  {
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }).notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.accountId] })],
);

/** One per device and entity; the token (`dt_…`) is stored only as its SHA-256. */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /**
     * The token before the last rotation, accepted until the new one is first used: a device that
     * crashed before storing its new token can still get in (and rotate again).
     */
    previousTokenHash: text('previous_token_hash').unique(),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('devices_entity_idx').on(t.entityId)],
);

/** Single-use codes that add a device of an existing member (stored hashed, 10 minutes). */
export const deviceCodes = pgTable('device_codes', {
  codeHash: text('code_hash').primaryKey(),
  entityId: uuid('entity_id')
    .notNull()
    .references(() => entities.id, { onDelete: 'cascade' }),
  createdBy: uuid('created_by').notNull(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

/** The per-entity change log, in commit order (`seq`). Idempotent by change id. */
export const changes = pgTable(
  'changes',
  {
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    deviceId: uuid('device_id').notNull(),
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    op: text('op', { enum: ['upsert', 'fact', 'transition'] }).notNull(),
    columns: jsonb('columns').$type<Record<string, unknown>>().notNull(),
    expect: jsonb('expect').$type<Record<string, unknown>>(),
    hlc: text('hlc').notNull(),
    schemaVersion: integer('schema_version').notNull(),
    receivedAt: at('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.seq] }), uniqueIndex('changes_id_idx').on(t.entityId, t.id)],
);

/**
 * Each column's HLC stamp in a row: per column, or one stamp when every column of the row has it
 * (a row written once, nearly all of them) — half the bytes, and a snapshot sends it as it is.
 */
export type RowStamps = Record<string, string> | string;

/** Current state of every synced row: values and, per column, the HLC stamp that wrote it. */
export const rows = pgTable(
  'rows',
  {
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    rowId: text('row_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    stamps: jsonb('stamps').$type<RowStamps>().notNull(),
    isFact: boolean('is_fact').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  // By seq: a snapshot reads the rows in the order they were last written, which is nearly the
  // order they lie on disk (a key-order read of a large entity was random I/O, twice as slow).
  (t) => [
    primaryKey({ columns: [t.entityId, t.tableName, t.rowId] }),
    index('rows_seq_idx').on(t.entityId, t.seq),
    // A signing link's token is found by its hash (public signing pages), across entities.
    index('rows_signer_token_idx').on(sql`(${t.data} ->> 'token_hash')`).where(sql`${t.tableName} = 'signers'`),
    // A request's signers, fields and audit entries (public signing pages).
    index('rows_request_idx').on(t.entityId, t.tableName, sql`(${t.data} ->> 'request_id')`).where(sql`${t.tableName} in ('signers', 'signature_fields', 'signature_audit')`),
  ],
);

/**
 * An entity's files, by sha256 (uploaded before the row that names them): one row per entity and
 * file, which is what every access is checked against; the bytes are elsewhere. On PGlite they
 * are a content-addressed file in the data dir (shared by entities with the same file);
 * `uploadId` names them in `blob_chunks` instead on PostgreSQL (several processes share it, not
 * a disk), and on PGlite only until the start after an upgrade has moved them to files.
 */
export const blobs = pgTable(
  'blobs',
  {
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    uploadId: uuid('upload_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.sha256] }), index('blobs_upload_idx').on(t.uploadId)],
);

/**
 * A file's bytes in pieces of at most 1 MiB, written one by one as an upload streams in. The
 * `blobs` row naming the upload is written last: until then nothing serves them, and an upload
 * that broke off is removed (or swept at a later start, by its time-ordered id).
 */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    uploadId: uuid('upload_id').notNull(),
    n: integer('n').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.n] })],
);

/**
 * An invitation of a person to an entity with a role, redeemed on their own install. It carries
 * the inviting device's id for that person, so their account takes it and ids agree everywhere.
 */
export const invitations = pgTable(
  'invitations',
  {
    codeHash: text('code_hash').primaryKey(),
    /** How devices name the invitation (list, resend, revoke): the code is known only as its hash. */
    id: uuid('id').notNull().defaultRandom(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** The name the inviter gave; the person may choose her own when she accepts. */
    name: text('name'),
    role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }).notNull(),
    accountId: uuid('account_id'),
    createdBy: uuid('created_by').notNull(),
    createdAt: at('created_at'),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    revokedAt: at('revoked_at'),
    /** When the join link last went out by mail (null: no SMTP here, or the mail failed). */
    mailedAt: at('mailed_at'),
  },
  (t) => [uniqueIndex('invitations_id_idx').on(t.id), index('invitations_entity_idx').on(t.entityId)],
);

/**
 * Mail the hosted instance sends for entities while their devices may be offline: a signer's
 * invitation when their turn comes, automatic reminders, everyone's signed copy when a request completes. A signing
 * link is made only when the mail goes out (`signerId` + kind), so no token is ever at rest here.
 */
export const hostedMail = pgTable(
  'hosted_mail',
  {
    id: uuid('id').primaryKey(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    /** One mail per purpose (`signed-copy:<request>:<signer>`): a push or a retry never queues it twice. */
    dedupeKey: text('dedupe_key').notNull(),
    kind: text('kind', { enum: ['signing_invite', 'signing_reminder', 'signed_copy'] }).notNull(),
    requestId: text('request_id').notNull(),
    signerId: text('signer_id').notNull(),
    /** `dropped`: not sent, its reason gone (the request or signer moved on); `last_error` says why. */
    status: text('status', { enum: ['queued', 'sent', 'failed', 'dropped'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: at('sent_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('hosted_mail_dedupe_idx').on(t.entityId, t.dedupeKey), index('hosted_mail_queue_idx').on(t.status, t.nextAttemptAt)],
);

/**
 * Mail a device handed over to send (`POST /sync/v1/mail`): a linked device needs no SMTP server
 * of its own. Idempotent by the device's mail id; one mail per `purpose_key` in an entity (a
 * request's "Completed" to one person, whichever device queued it). The body is kept only until
 * the mail is sent, dropped or given up (then set to null).
 */
export const relayedMail = pgTable(
  'relayed_mail',
  {
    id: uuid('id').primaryKey(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').notNull(),
    /** The device's own id of the mail. */
    mailId: uuid('mail_id').notNull(),
    purposeKey: text('purpose_key'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** `{ text, html, headers }` until sent; null after. */
    body: jsonb('body').$type<{ text: string; html: string; headers: { fromName?: string; replyTo?: string; messageId?: string; inReplyTo?: string; references?: string[] } | null } | null>(),
    ref: jsonb('ref').notNull().$type<Record<string, string>>(),
    status: text('status', { enum: ['queued', 'sent', 'failed', 'dropped'] }).notNull(),
    /** Why it was dropped or given up. */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: at('sent_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('relayed_mail_mail_idx').on(t.entityId, t.mailId),
    uniqueIndex('relayed_mail_purpose_idx').on(t.entityId, t.purposeKey),
    index('relayed_mail_queue_idx').on(t.status, t.nextAttemptAt),
    index('relayed_mail_quota_idx').on(t.entityId, t.createdAt),
  ],
);

/**
 * Bundles the hosted relay submitted, one per chain and set of nullifiers: an identical bundle is
 * answered with its job instead of a second submission. No client IP, quote or bundle content is
 * kept here — only what a job's progress needs — so nothing links a spend to whoever sent it.
 */
export const relayJobs = pgTable(
  'relay_jobs',
  {
    id: uuid('id').primaryKey(),
    chain: text('chain').notNull(),
    /** The bundle's nullifiers, lower-case, sorted, joined by ','. */
    nullifierKey: text('nullifier_key').notNull(),
    /** `submitting` while one process holds the bundle; then `submitted` → `confirmed` | `failed`. */
    status: text('status', { enum: ['submitting', 'submitted', 'confirmed', 'failed'] }).notNull(),
    token: text('token').notNull(),
    /** The fee the pool pays the relayer (base units of `token`). */
    fee: text('fee').notNull(),
    userOpHash: text('user_op_hash'),
    txHash: text('tx_hash'),
    /** What the UserOperation cost the relayer (wei), once included. */
    gasCost: text('gas_cost'),
    error: text('error'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('relay_jobs_nullifiers_idx').on(t.chain, t.nullifierKey), index('relay_jobs_created_idx').on(t.createdAt)],
);

/**
 * The last final ticket number an entity's series handed out (`ACME-1042` → 1042): the hosted
 * instance numbers tickets as their inserts arrive, under the entity's lock, so numbers are unique
 * across every device and member.
 */
export const ticketCounters = pgTable('ticket_counters', {
  entityId: uuid('entity_id')
    .primaryKey()
    .references(() => entities.id, { onDelete: 'cascade' }),
  lastNumber: bigint('last_number', { mode: 'number' }).notNull(),
});

/**
 * Webhook deliveries this instance makes (subscriptions whose deliverer is `hosted`): one job per
 * (event, subscription), its id the delivery's own (name-based, the same a device would make), so
 * a repeated push or a second maker queues nothing twice. Claimed with `FOR UPDATE SKIP LOCKED`
 * and a lease, so several processes on one PostgreSQL never attempt one job at once. What
 * devices see (the delivery and its attempts) is written back to the log as this instance's own changes.
 */
export const webhookJobs = pgTable(
  'webhook_jobs',
  {
    id: uuid('id').primaryKey(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact body sent and signed on every attempt. */
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'dropped'] }).notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    autoAttempts: integer('auto_attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('webhook_jobs_due_idx').on(t.status, t.nextAttemptAt), index('webhook_jobs_subscription_idx').on(t.entityId, t.subscriptionId)],
);

/** Signing secrets devices sent (`PUT /sync/v1/webhook-secrets`), sealed with this instance's key; the row names the version in force. */
export const webhookSecrets = pgTable(
  'webhook_secrets',
  {
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull(),
    version: text('version').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.subscriptionId, t.version] })],
);
