import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { entities } from '../auth/index.js';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface Actor {
  type: 'user' | 'api_key' | 'anonymous';
  id: string | null;
  name: string;
}

export const POSTING_STATUSES = ['posted', 'pending_approval', 'reversed', 'failed', 'unposted'] as const;
export type PostingStatus = (typeof POSTING_STATUSES)[number];

/** Per-entity ledger settings; its presence also marks the default chart as seeded. */
export const ledgerSettings = sqliteTable('ledger_settings', {
  entityId: text('entity_id').primaryKey().references(() => entities.id, { onDelete: 'cascade' }),
  /** Currency code → minimum amount (minor units, decimal string) that needs approval. */
  approvalThresholds: text('approval_thresholds', { mode: 'json' }).notNull().$type<Record<string, string>>(),
  /** Four-eyes rule: whoever recorded a held event may not approve it. */
  requireSeparateApprover: integer('require_separate_approver', { mode: 'boolean' }).notNull().default(false),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** The chart of accounts. Accounts that carry lines are never deleted, only archived. */
export const ledgerAccounts = sqliteTable(
  'ledger_accounts',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull(),
    description: text('description'),
    /** Seeded by the default chart and used by the built-in posting rules. */
    system: integer('system', { mode: 'boolean' }).notNull(),
    archivedAt: text('archived_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('ledger_accounts_code_uq').on(t.entityId, t.code)],
);

/** Business events as received; posting status moves, the journal they produce never does. */
export const ledgerEvents = sqliteTable(
  'ledger_events',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    timestamp: text('timestamp').notNull(),
    payload: text('payload', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    source: text('source').notNull(),
    correlationId: text('correlation_id'),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the canonical request, to tell a replay from a conflicting reuse of the key. */
    inputHash: text('input_hash').notNull(),
    schemaVersion: text('schema_version').notNull(),
    metadata: text('metadata', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    /** Who recorded it: a user, an API key, or null for another module acting on its own. */
    recordedBy: text('recorded_by', { mode: 'json' }).$type<Actor>(),
    postingStatus: text('posting_status', { enum: POSTING_STATUSES }).notNull(),
    postingError: text('posting_error'),
    reclassifiedFrom: text('reclassified_from'),
    reclassifiedTo: text('reclassified_to'),
    decidedBy: text('decided_by'),
    decidedAt: text('decided_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('ledger_events_idem_uq').on(t.entityId, t.idempotencyKey),
    index('ledger_events_list_idx').on(t.entityId, t.createdAt, t.id),
    index('ledger_events_status_idx').on(t.entityId, t.postingStatus, t.createdAt, t.id),
  ],
);

/**
 * Journal entries: append-only. A migration adds triggers that refuse UPDATE always and DELETE
 * while the entity exists (the cascades only serve removing a whole entity).
 * One `posting` entry per event at most, and one `reversal` per event at most: the unique
 * index is what makes "never reversed twice" hold even under a retried batch.
 */
export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull().references(() => ledgerEvents.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['posting', 'reversal'] }).notNull(),
    reversesEntryId: text('reverses_entry_id').unique(),
    description: text('description').notNull(),
    effectiveAt: text('effective_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('ledger_entries_event_kind_uq').on(t.eventId, t.kind), index('ledger_entries_effective_idx').on(t.entityId, t.effectiveAt, t.id)],
);

/** Entry lines: amount is a positive integer of minor units, as a decimal string (bigint in code). */
export const ledgerLines = sqliteTable(
  'ledger_lines',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    entryId: text('entry_id').notNull().references(() => ledgerEntries.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    accountId: text('account_id').notNull().references(() => ledgerAccounts.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    side: text('side', { enum: ['debit', 'credit'] }).notNull(),
    amount: text('amount').notNull(),
    memo: text('memo'),
  },
  (t) => [index('ledger_lines_entry_idx').on(t.entryId, t.position), index('ledger_lines_account_idx').on(t.entityId, t.accountId)],
);

/**
 * Maintained totals, derived from the lines (never synced: each device keeps its own from the
 * journal it holds). Triggers on `ledger_lines` and `ledger_entries` (migration 0018) keep them
 * current inside whichever transaction writes or removes a line — posting, reversal,
 * reclassification, lines applied by sync, a refused group undone — so no path can forget them.
 * An amount (up to 2^128 − 1) is kept exact in three signed base-10^18 limbs:
 * total = hi·10^36 + mid·10^18 + lo. `lines` counts the lines summed (a total with no lines is absent
 * from the reports, as an account without lines is). `rebuildBalances` recomputes both from the journal.
 */
const totals = () => ({
  lines: integer('lines').notNull(),
  lo: integer('lo').notNull(),
  mid: integer('mid').notNull(),
  hi: integer('hi').notNull(),
});

/** Every line ever written, per account, currency and side: the trial balance of "now" in O(accounts). */
export const ledgerBalances = sqliteTable(
  'ledger_balances',
  {
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    currency: text('currency').notNull(),
    side: text('side', { enum: ['debit', 'credit'] }).notNull(),
    ...totals(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.accountId, t.currency, t.side] })],
);

/** The same per day of the entry's effective date (UTC, `YYYY-MM-DD`): any period in O(accounts × days). */
export const ledgerDayTotals = sqliteTable(
  'ledger_day_totals',
  {
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    accountId: text('account_id').notNull(),
    currency: text('currency').notNull(),
    side: text('side', { enum: ['debit', 'credit'] }).notNull(),
    ...totals(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.day, t.accountId, t.currency, t.side] })],
);

/** Journal entries per effective day: the journal's total without reading every entry (triggers, migration 0020). */
export const ledgerDayEntries = sqliteTable(
  'ledger_day_entries',
  {
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    entries: integer('entries').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.day] })],
);

/**
 * The ledger search index's rows: one per event, with a stable integer `doc` — the rowid of its
 * row in the FTS5 table `ledger_search` (migration 0027: the type, the payload's and metadata's
 * text — descriptions, counterparties, numbers, references — and the correlation id), kept by
 * triggers on `ledger_events` in the writing transaction, also for events applied by sync.
 */
export const ledgerSearchDocs = sqliteTable(
  'ledger_search_docs',
  {
    doc: integer('doc').primaryKey(),
    eventId: text('event_id').notNull(),
    entityId: text('entity_id').notNull(),
  },
  (t) => [uniqueIndex('ledger_search_docs_event_uq').on(t.eventId)],
);
