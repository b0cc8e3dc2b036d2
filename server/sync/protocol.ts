// The wire protocol between a device and the hosted instance (`/sync/v1`): one zod schema per
// message, shared by both sides so they cannot drift apart.
import { z } from 'zod';
import { isStamp } from './hlc.js';
import { isSafeText, safeText, UNSAFE_TEXT_MESSAGE } from '../http/safe-text.js';

/** Oldest device schema version the hosted instance accepts; older devices go read-only. */
export const PROTOCOL_VERSION = 1;

/** Limits of one push, as DESIGN.md sets them. */
export const MAX_PUSH_CHANGES = 500;
export const MAX_PUSH_BYTES = 1024 * 1024;
export const MAX_PULL_CHANGES = 1000;
/** Long-poll: the longest a pull may wait for new changes. */
export const MAX_PULL_WAIT_MS = 25_000;
export const MAX_BLOB_BYTES = 26 * 1024 * 1024;
/** The largest schema version: the hosted log's `schema_version` column is a 32-bit integer. */
export const MAX_SCHEMA_VERSION = 2 ** 31 - 1;

const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier');
const rowId = z.string().min(1).max(200);
const stamp = z.string().refine(isStamp, 'must be an HLC stamp');
/** A column value as SQLite holds it: captured rows never nest (a JSON column travels as its text). */
const value = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One captured change of one row.
 * - `upsert`: a mutable row; each column in `columns` is last-writer-wins by `hlc`.
 * - `fact`: written once; the same fact from two devices merges into one (first write wins).
 * - `transition`: a guarded state change, applied only if every column in `expect` still holds;
 *   without `expect` it creates its row, and is refused if the row exists already.
 */
export const changeSchema = z.strictObject({
  id: z.uuid('must be a UUID'),
  table: identifier,
  rowId,
  op: z.enum(['upsert', 'fact', 'transition']),
  columns: z.record(identifier, value).refine((c) => Object.keys(c).length <= 200, 'at most 200 columns'),
  expect: z.record(identifier, value).optional(),
  hlc: stamp,
  schemaVersion: z.int().min(1).max(MAX_SCHEMA_VERSION),
  /**
   * The device's transaction that made the change. The changes of one group, sent together in
   * one push, are accepted together or refused together (a transition and the facts it wrote).
   */
  group: z.uuid('must be a UUID').optional(),
});
export type Change = z.infer<typeof changeSchema>;

export const pushBody = z.strictObject({
  changes: z.array(changeSchema).max(MAX_PUSH_CHANGES, `at most ${MAX_PUSH_CHANGES} changes per push`),
});
export type PushBody = z.infer<typeof pushBody>;

export const pushResultSchema = z.discriminatedUnion('status', [
  z.object({ id: z.uuid(), status: z.literal('accepted'), seq: z.number() }),
  z.object({ id: z.uuid(), status: z.literal('duplicate'), seq: z.number() }),
  z.object({ id: z.uuid(), status: z.literal('rejected'), reason: z.string() }),
]);
export type PushResult = z.infer<typeof pushResultSchema>;

export const pushResponse = z.object({ serverTime: z.string(), results: z.array(pushResultSchema) });
export type PushResponse = z.infer<typeof pushResponse>;

/** A change as the log delivers it: with its place in the entity's order and its origin. */
/** The device id of the hosted instance's own changes in the log (a signer on its public pages). */
export const HOSTED_DEVICE_ID = '00000000-0000-0000-0000-000000000000';

/** Why a removed member's device is refused (401): the device then lets the entity go (see sync/people.ts). */
export const REMOVED_MEMBER_MESSAGE = 'This device was revoked: its account was removed from the entity';

export const loggedChangeSchema = changeSchema.extend({ seq: z.number(), deviceId: z.uuid() });
export type LoggedChange = z.infer<typeof loggedChangeSchema>;

export const pullQuery = z.object({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PULL_CHANGES).default(MAX_PULL_CHANGES),
  waitMs: z.coerce.number().int().min(0).max(MAX_PULL_WAIT_MS).default(0),
});

export const pullResponse = z.object({
  serverTime: z.string(),
  changes: z.array(loggedChangeSchema),
  /** Pass back as `cursor`: the seq of the last change delivered. */
  cursor: z.number(),
  hasMore: z.boolean(),
});
export type PullResponse = z.infer<typeof pullResponse>;

export const roleSchema = z.enum(['owner', 'admin', 'member', 'viewer']);
export type HostedRole = z.infer<typeof roleSchema>;

// Text of public bodies (link, join) is safe text: a NUL or an unpaired surrogate is a 400 here, not a 500 in the store.
const email = z.email('must be an e-mail address').max(254).refine(isSafeText, UNSAFE_TEXT_MESSAGE).transform((e) => e.toLowerCase());
const password = safeText().min(10, 'must be at least 10 characters').max(200);
const deviceName = safeText().trim().min(1).max(80);
const personName = safeText().trim().min(1).max(120);
/** The code mailed to confirm a new account's address (`XXXX-XXXX`). */
const confirmationCode = safeText().trim().min(6).max(20);

/**
 * Link (and join): credentials that sign in to a confirmed account enrol the device (201). Any
 * others answer 202 `confirmationSent` — an unknown address gets a single-use code by mail (30
 * minutes), a known one with a wrong password a note to its owner and no code — and the caller
 * repeats the request with `confirmationCode`: the account is made (with the first request's
 * password) and the device enrolled (201); a wrong, expired or used code answers 401.
 */
export const linkBody = z.strictObject({
  email,
  password,
  name: personName.optional(),
  /** The desktop user's id: a new account takes it, so the user has one id on every device. */
  accountId: z.uuid('must be a UUID').optional(),
  entityId: z.uuid('must be a UUID'),
  entityName: safeText().trim().min(1).max(200),
  deviceName,
  confirmationCode: confirmationCode.optional(),
});

export const joinBody = z.strictObject({ code: safeText().trim().min(6).max(64), email, password, name: personName.optional(), deviceName, confirmationCode: confirmationCode.optional() });

export const invitationBody = z.strictObject({ email, role: roleSchema, name: personName.optional(), accountId: z.uuid('must be a UUID').optional() });

// Invitations are auth's (people of an entity); the protocol speaks them as auth defines them.
export { invitationCreated, invitationSchema, type InvitationCreated } from '../auth/index.js';

export const memberRoleBody = z.strictObject({ role: roleSchema });
export const renameDeviceBody = z.strictObject({ name: deviceName });
export const passwordChangeBody = z.strictObject({ currentPassword: z.string().min(1).max(200), newPassword: password });
export const passwordCheckBody = z.strictObject({ password: z.string().min(1).max(200) });

/** A person of the entity as the hosted instance writes her row (entity_people). */
export const personSchema = z.object({
  accountId: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  state: z.enum(['invited', 'active', 'removed']),
});

export const enrolment = z.object({
  serverTime: z.string(),
  accountId: z.uuid(),
  accountName: z.string(),
  deviceId: z.uuid(),
  /** `dt_…`: shown once; the hosted instance keeps only its hash. */
  deviceToken: z.string(),
  entity: z.object({ id: z.uuid(), name: z.string() }),
  role: roleSchema,
});
export type Enrolment = z.infer<typeof enrolment>;

/** 202 of link and join: a code (or, for a known address, a note) went to `email`; repeat with `confirmationCode`. */
export const confirmationSent = z.object({ confirmation: z.literal('sent'), email: z.string() });
export type ConfirmationSent = z.infer<typeof confirmationSent>;

/** What link and join answer: the enrolment (201) or a confirmation to make first (202). */
export const enrolmentAnswer = z.union([enrolment, confirmationSent]);

export const deviceCode = z.object({ code: z.string(), expiresAt: z.string() });

export const deviceSchema = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type DeviceInfo = z.infer<typeof deviceSchema>;

// --- Snapshot, pull paging, hosted info (initial sync and the device loop) ---

/**
 * A pull page as the device reads it: `head` is the entity's newest seq (the device shows
 * "syncing n of m"); `mustRefetch` says the cursor is older than the log keeps (compaction) or
 * newer than the log (a hosted instance restored from a backup): take a new snapshot.
 */
export const pullPage = pullResponse.extend({ head: z.number().optional(), mustRefetch: z.boolean().optional() });
export type PullPage = z.infer<typeof pullPage>;

/** The longest NDJSON line of a snapshot the device accepts (one row with its stamps). */
export const MAX_SNAPSHOT_LINE_BYTES = 4 * 1024 * 1024;

/**
 * `GET /sync/v1/snapshot` is NDJSON: a header line, one line per current row, and an end line.
 * A row line is `{"table", "rowId", "data", "stamps", "fact"}`, where `stamps` is one HLC stamp
 * when every column shares it (the usual case: the row was written once) or an object of stamps
 * per column. Rows may repeat: a later line for the same row replaces an earlier one (rows that
 * changed while the snapshot was read come again at the end). The device applies them and
 * continues pulling from the end line's `seq`.
 */
export const snapshotHeader = z.object({ kind: z.literal('header'), serverTime: z.string(), seq: z.number(), rows: z.number() });
export const snapshotEnd = z.object({ kind: z.literal('end'), serverTime: z.string(), seq: z.number(), rows: z.number() });
export const snapshotRow = z.object({
  table: z.string(),
  rowId: z.string(),
  data: z.record(z.string(), z.unknown()),
  stamps: z.union([z.string(), z.record(z.string(), z.string())]),
  fact: z.boolean(),
});
export type SnapshotRow = z.infer<typeof snapshotRow>;

/** `GET /sync/v1/info`: what this hosted instance accepts. Public (a device checks it before linking too). */
export const hostedInfo = z.object({
  serverTime: z.string(),
  protocol: z.literal('bureau-sync/1'),
  /** The oldest device schema version accepted; an older device goes read-only ("update required"). */
  minSchemaVersion: z.number(),
  /** The newest schema version this hosted instance knows. */
  schemaVersion: z.number(),
  /** Where this instance serves public pages (signing links), when it does. */
  publicUrl: z.string().url().optional(),
});
export type HostedInfo = z.infer<typeof hostedInfo>;

/** A device token swapped for a new one: the old one stops working at once. */
export const rotatedToken = z.object({ serverTime: z.string(), deviceId: z.uuid(), deviceToken: z.string() });

/** One message a device hands the hosted instance to send (`POST /sync/v1/mail`): one recipient. */
export const MAX_MAIL_BODY_BYTES = 256 * 1024;
/** The request body limit of `POST /sync/v1/mail` (text and HTML together, JSON-escaped). */
export const MAX_MAIL_REQUEST_BYTES = 768 * 1024;
const purposeKey = safeText().min(1).max(400).regex(/^\S+$/, 'must have no spaces');
const headerText = safeText().max(998).regex(/^[^\r\n]*$/, 'must be one line');
const messageIdText = z.string().max(500).regex(/^[^\s<>]+$/, 'must be a message id without angle brackets');
export const relayMailBody = z.strictObject({
  id: z.uuid('must be a UUID').meta({ description: 'The device mail id: a retry with the same id never sends twice' }),
  to: z.email('must be an e-mail address').max(254).refine(isSafeText, UNSAFE_TEXT_MESSAGE).transform((e) => e.toLowerCase()).meta({ description: 'One recipient, an address the entity knows (a member, a signer of one of its requests, a ticket contact)' }),
  subject: headerText.min(1).max(300),
  text: safeText().max(MAX_MAIL_BODY_BYTES),
  html: safeText().max(MAX_MAIL_BODY_BYTES),
  ref: z.record(z.string().max(40), safeText().max(200)).refine((r) => Object.keys(r).length <= 12, 'at most 12 keys').meta({ description: 'What the mail is about, e.g. `{kind: "signing_invite", requestId, signerId}`' }),
  purposeKey: purposeKey.optional().meta({ description: 'One mail per purpose in the entity (e.g. `completed:<request>:<address>`): a second one under the key is dropped' }),
  headers: z
    .strictObject({
      fromName: headerText.max(100).optional().meta({ description: "The sender's name (a helpdesk mailbox); the address is the instance's own" }),
      replyTo: z.email().max(254).optional(),
      messageId: messageIdText.optional(),
      inReplyTo: messageIdText.optional(),
      references: z.array(messageIdText).max(50).optional(),
    })
    .optional(),
});
export type RelayMailBody = z.input<typeof relayMailBody>;
export const relayMailAnswer = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'sent', 'failed', 'dropped']),
  reason: z.string().nullable().meta({ description: 'Why it is dropped: its request moved on, or another device sent the same purpose' }),
});
