import { sqliteTable, text, integer, real, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';

export interface PageSize {
  width: number;
  height: number;
}

/** An uploaded PDF; the bytes live in the content-addressed blob store under `sha256`. */
export const documents = sqliteTable(
  'documents',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    folderId: text('folder_id'),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    pageCount: integer('page_count').notNull(),
    pages: text('pages', { mode: 'json' }).notNull().$type<PageSize[]>(),
    /** Manual order inside its folder (POST …/folders/{id}/reorder); null = after ordered ones. */
    position: integer('position'),
    uploadedBy: text('uploaded_by'),
    /**
     * A signed copy filed back when its signature request completed: the request and the original
     * document it was signed from (null for uploads). Its id is derived from the request
     * (signedDocumentIdOf), so the copy is filed once, whichever device completes the request.
     */
    signedFromRequestId: text('signed_from_request_id'),
    originalDocumentId: text('original_document_id'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('documents_entity_idx').on(t.entityId, t.folderId), index('documents_sha_idx').on(t.entityId, t.sha256)],
);

export const REQUEST_STATUSES = ['draft', 'sent', 'completed', 'cancelled', 'declined', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const signatureRequests = sqliteTable(
  'signature_requests',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    documentId: text('document_id').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    status: text('status', { enum: REQUEST_STATUSES }).notNull(),
    signingOrder: text('signing_order', { enum: ['parallel', 'sequential'] }).notNull(),
    dueDate: text('due_date'),
    autoRemind: integer('auto_remind', { mode: 'boolean' }).notNull().default(true),
    /** Base URL for signing links, fixed when the request is sent. */
    linkBaseUrl: text('link_base_url'),
    /**
     * Signing links point at the hosted instance's public pages (the entity was linked when the
     * request was sent): signers may sign there while every device is offline, and the hosted
     * instance mails the signed copies.
     */
    publicSigning: integer('public_signing', { mode: 'boolean' }).notNull().default(false),
    signedSha256: text('signed_sha256'),
    /**
     * Hash of the newest audit entry. Guarded in sync: an entry appended on a device that had not
     * seen the newest one (two offline devices) is refused with its whole change, so every
     * device ends up with one linear chain, in the order the hosted instance accepted them.
     */
    auditHead: text('audit_head'),
    createdBy: text('created_by'),
    createdByName: text('created_by_name'),
    sentAt: text('sent_at'),
    completedAt: text('completed_at'),
    cancelledAt: text('cancelled_at'),
    declinedAt: text('declined_at'),
    expiredAt: text('expired_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  // The list's order (newest first, by id on ties), with and without a status: a page walks an index.
  (t) => [
    index('signature_requests_entity_idx').on(t.entityId, t.status, t.createdAt, t.id),
    index('signature_requests_created_idx').on(t.entityId, t.createdAt, t.id),
    index('signature_requests_document_idx').on(t.documentId),
  ],
);

export const SIGNER_ROLES = ['signer', 'approver', 'viewer', 'cc'] as const;
export type SignerRole = (typeof SIGNER_ROLES)[number];
export const SIGNER_STATUSES = ['pending', 'signed', 'declined'] as const;

export const signers = sqliteTable(
  'signers',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    requestId: text('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: SIGNER_ROLES }).notNull(),
    order: integer('order').notNull(),
    status: text('status', { enum: SIGNER_STATUSES }).notNull(),
    /** SHA-256 of the signing token (lookup); the token itself sealed, to re-send the same link. */
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    sentAt: text('sent_at'),
    viewedAt: text('viewed_at'),
    signedAt: text('signed_at'),
    declinedAt: text('declined_at'),
    declineReason: text('decline_reason'),
    signedIp: text('signed_ip'),
    signedUserAgent: text('signed_user_agent'),
    lastNotifiedAt: text('last_notified_at'),
    remindersSent: integer('reminders_sent').notNull().default(0),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('signers_token_uq').on(t.tokenHash), index('signers_request_idx').on(t.entityId, t.requestId), index('signers_email_idx').on(t.entityId, t.email)],
);

export const FIELD_TYPES = ['signature', 'initials', 'name', 'email', 'date', 'text', 'checkbox'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A field overlay on a page; x, y, width, height are fractions of the page (origin top-left). */
export const signatureFields = sqliteTable(
  'signature_fields',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    requestId: text('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    signerId: text('signer_id')
      .notNull()
      .references(() => signers.id, { onDelete: 'cascade' }),
    type: text('type', { enum: FIELD_TYPES }).notNull(),
    page: integer('page').notNull(),
    x: real('x').notNull(),
    y: real('y').notNull(),
    width: real('width').notNull(),
    height: real('height').notNull(),
    required: integer('required', { mode: 'boolean' }).notNull(),
    label: text('label'),
    value: text('value'),
    filledAt: text('filled_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('signature_fields_request_idx').on(t.entityId, t.requestId)],
);

/** Append-only, hash-chained audit trail per request: hash = SHA-256(prevHash ‖ canonical entry). */
export const signatureAudit = sqliteTable(
  'signature_audit',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    requestId: text('request_id').notNull(),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    data: text('data', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [uniqueIndex('signature_audit_seq_uq').on(t.requestId, t.seq), index('signature_audit_entity_idx').on(t.entityId, t.requestId)],
);

/** The entity's self-signed sealing certificate; the private key is sealed with ctx.secrets. */
export const signingCertificates = sqliteTable('signing_certificates', {
  entityId: text('entity_id').primaryKey(),
  certPem: text('cert_pem').notNull(),
  keySealed: text('key_sealed').notNull(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
});

/**
 * Text read from a PDF's pages (pdf.js through unpdf, in a worker: pdf-text.ts), per entity and content hash.
 * Each device extracts its own from the blobs it holds (never synced); `failed` marks a PDF whose
 * text could not be read, so it is not tried again. Triggers (migration 0027) copy the text into
 * the document search index of every document with these bytes.
 */
export const documentTexts = sqliteTable(
  'document_texts',
  {
    entityId: text('entity_id').notNull(),
    sha256: text('sha256').notNull(),
    text: text('text').notNull(),
    failed: integer('failed', { mode: 'boolean' }).notNull().default(false),
    extractedAt: text('extracted_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.sha256] })],
);

/**
 * The document search index's rows: one per document, with a stable integer `doc` — the rowid of
 * its row in the FTS5 table `documents_search` (name, text; migration 0027), kept by triggers on
 * `documents` and `document_texts` in the writing transaction, also for rows applied by sync.
 */
export const documentsSearchDocs = sqliteTable(
  'documents_search_docs',
  {
    doc: integer('doc').primaryKey(),
    documentId: text('document_id').notNull(),
    entityId: text('entity_id').notNull(),
  },
  (t) => [uniqueIndex('documents_search_docs_document_uq').on(t.documentId)],
);
