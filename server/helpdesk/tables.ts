import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';

/** Entity-scoped ticket categories (e.g. "Billing", "Technical"). */
export const helpdeskCategories = sqliteTable(
  'helpdesk_categories',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    name: text('name').notNull(),
    /**
     * Lower-cased name. Unique within the entity as far as this device can tell (409 on create and
     * rename); not a unique index: a rename on one device into a name created on another, offline,
     * leaves two rows of that name everywhere, where an index would keep one device from the other's row.
     */
    nameKey: text('name_key').notNull(),
    description: text('description'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('helpdesk_categories_name_idx').on(t.entityId, t.nameKey)],
);

export const helpdeskTickets = sqliteTable(
  'helpdesk_tickets',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    ticketNumber: text('ticket_number').notNull(),
    /**
     * The number this device gave the ticket while the hosted instance had not numbered it yet
     * (linked entities); kept after the final number arrives, so mail that quotes it still threads.
     * The number is provisional while `ticket_number` still equals it.
     */
    provisionalNumber: text('provisional_number'),
    subject: text('subject').notNull(),
    description: text('description'),
    status: text('status', { enum: ['new', 'open', 'pending', 'resolved', 'closed'] }).notNull(),
    priority: text('priority', { enum: ['low', 'normal', 'high', 'urgent'] }).notNull(),
    channel: text('channel', { enum: ['email', 'web', 'phone', 'chat', 'api'] }).notNull(),
    contactEmail: text('contact_email'),
    contactName: text('contact_name'),
    categoryId: text('category_id'),
    createdBy: text('created_by'),
    assignedTo: text('assigned_to'),
    /** Lower-cased subject and ticket number, for case-insensitive search beyond ASCII. */
    searchText: text('search_text').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    firstResponseAt: text('first_response_at'),
    resolvedAt: text('resolved_at'),
    closedAt: text('closed_at'),
  },
  (t) => [
    uniqueIndex('helpdesk_tickets_number_idx').on(t.entityId, t.ticketNumber),
    index('helpdesk_tickets_list_idx').on(t.entityId, t.createdAt, t.id),
    index('helpdesk_tickets_category_idx').on(t.entityId, t.categoryId),
  ],
);

export const helpdeskMessages = sqliteTable(
  'helpdesk_messages',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => helpdeskTickets.id, { onDelete: 'cascade' }),
    authorType: text('author_type', { enum: ['agent', 'customer', 'system'] }).notNull(),
    authorId: text('author_id'),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    isInternal: integer('is_internal', { mode: 'boolean' }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('helpdesk_messages_ticket_idx').on(t.ticketId, t.createdAt, t.id)],
);

/**
 * Ticket numbers are `<node>-<sequence>`: the node tag is random per installation and the
 * sequence counts up per entity on that installation, so two devices creating tickets offline
 * never mint the same number, and a number is never handed out twice.
 */
export const helpdeskNode = sqliteTable('helpdesk_node', {
  id: integer('id').primaryKey(), // always 1: one row per installation
  tag: text('tag').notNull(),
});

/** Per entity: the ticket-number prefix an owner chose (absent: derived from the entity's name). Synced. */
export const helpdeskSettings = sqliteTable('helpdesk_settings', {
  entityId: text('entity_id').primaryKey(),
  ticketPrefix: text('ticket_prefix'),
  updatedAt: text('updated_at').notNull(),
});

export const helpdeskTicketCounters = sqliteTable(
  'helpdesk_ticket_counters',
  {
    entityId: text('entity_id').notNull(),
    node: text('node').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.node] })],
);

export * from './mail-tables.js';

/**
 * The full-text index's documents: a ticket (subject, description, contact, number) or one
 * message (its body), each with a stable integer `doc` — the rowid of its row in the FTS5 table
 * `helpdesk_search` (migration 0019), which triggers on tickets and messages keep current in the
 * writing transaction, also for rows that arrive by sync.
 */
export const helpdeskSearchDocs = sqliteTable(
  'helpdesk_search_docs',
  {
    doc: integer('doc').primaryKey(),
    sourceId: text('source_id').notNull(),
    entityId: text('entity_id').notNull(),
    ticketId: text('ticket_id').notNull(),
  },
  (t) => [uniqueIndex('helpdesk_search_docs_source_uq').on(t.sourceId), index('helpdesk_search_docs_ticket_idx').on(t.entityId, t.ticketId)],
);

/**
 * The subject trigram index's keys (FTS5 `helpdesk_subject_trigrams`, migration 0033: the
 * spec's `search`, a substring of the subject, found and counted without reading every subject).
 * A ticket's key is its entity's number × 2^40 plus its place in that entity, so one entity's
 * matches are a rowid range FTS5 seeks to and counts alone. Kept by triggers on tickets in the
 * writing transaction, also for rows that arrive by sync.
 */
export const helpdeskTrigramDocs = sqliteTable('helpdesk_trigram_docs', {
  doc: integer('doc').primaryKey(),
  ticketId: text('ticket_id').notNull().unique(),
});

/** The entities' numbers in those keys. Never reused (AUTOINCREMENT): a number an entity left behind never names another's rows. */
export const helpdeskTrigramEntities = sqliteTable('helpdesk_trigram_entities', {
  ordinal: integer('ordinal').primaryKey({ autoIncrement: true }),
  entityId: text('entity_id').notNull().unique(),
});
