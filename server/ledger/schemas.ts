import { z } from 'zod';
import { searchTextParam } from '../db/fts.js';
import { ACCOUNT_TYPES, POSTING_STATUSES } from './tables.js';
import { isCurrency } from './money.js';

const jsonObject = z.record(z.string(), z.unknown());

/** Deepest nesting of objects and arrays in a JSON value, counted without recursion; stops past `limit`. */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Free-form JSON from clients, nested at most 64 levels: the idempotency hash and the stored
 * copy serialise it recursively, and thousands of levels overflow the stack (a 500).
 */
const MAX_JSON_DEPTH = 64;
const jsonObjectInput = jsonObject.refine((v) => nestingDepth(v, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH, `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
const decimalString = z.string().meta({ description: 'Decimal string in major units of the currency', example: '1200.00' });

export const postingStatusSchema = z.enum(POSTING_STATUSES).meta({
  id: 'LedgerPostingStatus',
  description:
    'posted: journal entry written. pending_approval: held because it reaches an approval threshold (→ posted on approve, → failed on reject). failed: payload invalid for its type, or the rule could not post (nothing written; `postingError` says why). unposted: the type has no posting rule. reversed: its journal entry was reversed (by reclassification or reversal); final.',
});

// ── events ───────────────────────────────────────────────────────────────────────────────

export const postEventInput = z.object({
  type: z.string().min(1).max(80).meta({ description: 'An event type from GET /api/ledger/event-types; unknown types are refused with 400', example: 'invoice_created' }),
  payload: jsonObjectInput.default({}).meta({ description: "The business data, validated against the type's payload schema (version `schemaVersion`)" }),
  timestamp: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'When the business event happened (the journal date of its posting). Default: now.' }),
  source: z.string().trim().min(1).max(100).optional().meta({ description: 'Which system produced the event. Default: `api` for API keys, `ui` for sessions.' }),
  correlationId: z.string().trim().min(1).max(200).optional(),
  idempotencyKey: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({
      description:
        "Unique per entity. Repeating a request with the same key and the same input returns the original event (200, header `Idempotent-Replayed: true`) and posts nothing; the same key with different input is refused with 409.",
    }),
  schemaVersion: z.string().min(1).max(20).optional().meta({ description: "Payload schema version. Default: the type's current version. An unsupported version makes the event `failed`." }),
  metadata: jsonObjectInput.optional().meta({ description: 'Free-form data kept with the event; not used for posting' }),
});
export type PostEventInput = z.input<typeof postEventInput>;

export const postEventBody = postEventInput.extend({ entityId: z.uuid().optional() });

/** Events per `POST /api/ledger/events/batch`. */
export const MAX_BATCH_EVENTS = 1000;

export const postEventsBatchBody = z.object({
  entityId: z.uuid().optional(),
  events: z
    .array(
      z.record(z.string(), z.unknown()).meta({
        description:
          'One event, as the body of POST /api/ledger/events: `type`, `payload`, and optionally `timestamp`, `source`, `correlationId`, `idempotencyKey`, `schemaVersion`, `metadata`. Validated per event: an invalid one gets its own 400 result and does not affect the others.',
      }),
    )
    .min(1, 'events must hold at least one event')
    .max(MAX_BATCH_EVENTS, `At most ${MAX_BATCH_EVENTS} events per batch: split larger batches`),
});


export const ledgerEventSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    type: z.string(),
    timestamp: z.string(),
    payload: jsonObject,
    source: z.string(),
    correlationId: z.string().nullable(),
    idempotencyKey: z.string().nullable(),
    schemaVersion: z.string(),
    metadata: jsonObject,
    recordedBy: z
      .object({ type: z.enum(['user', 'api_key', 'anonymous']), id: z.string().nullable(), name: z.string() })
      .nullable()
      .meta({ description: 'Who recorded the event (or reclassified it into being); null when another module posted it on its own' }),
    postingStatus: postingStatusSchema,
    postingError: z.string().nullable(),
    reclassifiedFrom: z.uuid().nullable().meta({ description: 'The event this one replaced through reclassification' }),
    reclassifiedTo: z.uuid().nullable().meta({ description: 'The event that replaced this one through reclassification' }),
    decidedBy: z.string().nullable().meta({ description: 'User who approved or rejected a held event' }),
    decidedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'LedgerEvent' });

export const batchEventResultSchema = z
  .object({
    status: z.number().int().meta({ description: '201 recorded (see `event.postingStatus`), 200 idempotent replay of an earlier event, 400 invalid request or unknown type, 409 idempotencyKey used with a different request' }),
    event: ledgerEventSchema.optional().meta({ description: 'The event (status 200 or 201)' }),
    error: z.string().optional().meta({ description: 'Why the event was refused (status 4xx/5xx)' }),
    details: z.unknown().optional(),
  })
  .meta({ id: 'LedgerBatchEventResult' });

export const postEventsBatchResponse = z.object({
  results: z.array(batchEventResultSchema).meta({ description: 'A result per event, in the order of `events`' }),
});

export const journalLineSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    accountCode: z.string(),
    accountName: z.string(),
    currency: z.string(),
    side: z.enum(['debit', 'credit']),
    amount: decimalString,
    memo: z.string().nullable(),
  })
  .meta({ id: 'LedgerJournalLine' });

export const journalEntrySchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid(),
    eventType: z.string(),
    kind: z.enum(['posting', 'reversal']),
    reversesEntryId: z.uuid().nullable(),
    description: z.string(),
    effectiveAt: z.string(),
    createdAt: z.string(),
    lines: z.array(journalLineSchema),
  })
  .meta({ id: 'LedgerJournalEntry' });

export const ledgerEventDetailSchema = ledgerEventSchema.extend({ entries: z.array(journalEntrySchema) }).meta({ id: 'LedgerEventDetail' });

const pageParam = z.coerce.number().int().min(1, 'page must be 1 or more').default(1).meta({ description: '1-based page number' });
const pageSizeParam = z.coerce.number().int().min(1, 'pageSize must be 1 to 200').max(200, 'pageSize must be 1 to 200').default(50).meta({ description: 'Items per page: 1 to 200, default 50' });

export const listEventsQuery = z.object({
  entityId: z.uuid().optional().meta({ description: 'The entity (query parameter `entityId`; or `x-entity-id` with a session)' }),
  postingStatus: postingStatusSchema.optional().meta({ description: 'Filter by posting status' }),
  type: z.string().min(1).max(80).optional().meta({ description: 'Filter by event type' }),
  correlationId: z.string().min(1).max(200).optional().meta({ description: 'Filter by correlationId' }),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only events whose business timestamp is ≥ from' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only events whose business timestamp is ≤ to' }),
  q: searchTextParam("events whose type, payload text (descriptions, customers, suppliers, merchants, counterparties, numbers, references), metadata, correlationId or idempotencyKey"),
  view: z.literal('statusCounts').optional().meta({ description: '`statusCounts`: return `{ counts, total }` (counts per posting status for the other filters, ignoring postingStatus and pagination) instead of events' }),
  page: pageParam,
  pageSize: pageSizeParam,
});

export const statusCountsSchema = z
  .object({
    counts: z.object({ posted: z.number().int(), pending_approval: z.number().int(), reversed: z.number().int(), failed: z.number().int(), unposted: z.number().int() }),
    total: z.number().int(),
  })
  .meta({ id: 'LedgerStatusCounts', description: 'With view=statusCounts: how many events are in each posting status (every status present, zero included).' });

export const eventPageSchema = z
  .object({ events: z.array(ledgerEventSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'LedgerEventPage', description: 'Newest first (createdAt, then id, descending).' });

export const listEventsResponse = z.union([eventPageSchema, statusCountsSchema]);

export const eventParams = z.object({ eventId: z.uuid() });
export const rejectBody = z.object({ entityId: z.uuid().optional(), reason: z.string().trim().min(1).max(500).optional() });
export const reverseBody = z.object({ entityId: z.uuid().optional(), reason: z.string().trim().min(1).max(500).optional() });

export const batchReclassifyBody = z.object({
  entityId: z.uuid().optional(),
  eventIds: z
    .array(z.uuid())
    .min(1, 'eventIds must list at least one event')
    .max(200, 'At most 200 events per batch')
    .refine((ids) => new Set(ids).size === ids.length, 'eventIds must not repeat'),
  newEventType: z.string().min(1).max(80),
  payloads: z
    .record(z.uuid(), jsonObjectInput)
    .optional()
    .meta({
      description:
        "The new type's payload for some of the events, by event id (the fields the new type needs that the old payload lacks; the UI prefills them from the old values). Events not listed keep their payload as it is. A payload that does not fit the new type fails that event with the fields named.",
    }),
  force: z.boolean().optional().meta({ description: 'Reclassify events even when the correction would leave cash, a receivable, crypto or a payable below zero (see impossibleBalances). Default false.' }),
}).refine((b) => Object.keys(b.payloads ?? {}).every((id) => b.eventIds.includes(id)), { message: 'payloads may only name events listed in eventIds', path: ['payloads'] });

export const batchReclassifyResponse = z
  .object({
    summary: z.object({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
    results: z.array(
      z.object({
        eventId: z.uuid(),
        success: z.boolean(),
        message: z.string(),
        newEventId: z.uuid().optional(),
        impossibleBalances: z
          .array(z.object({ accountId: z.uuid(), code: z.string(), name: z.string(), currency: z.string(), balance: decimalString }))
          .optional()
          .meta({ description: 'Why an event was refused: the accounts that can never be negative (cash 1000, receivables 1100, crypto 1300/1310, payables 2000) its correction would leave below zero, e.g. a receivable of an invoice already paid. Send force: true to reclassify anyway.' }),
      }),
    ),
  })
  .meta({ id: 'LedgerBatchReclassifyResult' });

// ── event types ──────────────────────────────────────────────────────────────────────────

export const eventTypeSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    description: z.string(),
    schemaVersion: z.string(),
    posts: z.boolean().meta({ description: 'False for types recorded as `unposted`' }),
    recordable: z.boolean().meta({ description: 'False for types Bureau records itself (wallet transfers and payments, chain resets, relayer gas): POST /api/ledger/events refuses them (400), the record form does not offer them; they can be reclassified' }),
    flow: z.enum(['in', 'out', 'internal', 'none']).meta({
      description:
        'Which side of the business the type is about: `in` customers and money coming in (invoices, credit notes, receipts, owner contributions), `out` suppliers and money going out (bills, payments, expenses, refunds), `internal` between own accounts, `none` nothing posted. The UI offers reclassification to types of the same flow; the API accepts any posting type.',
    }),
    rule: z.string().nullable().meta({ description: 'The posting rule in words' }),
    payloadSchema: jsonObject.meta({ description: 'JSON Schema (draft 2020-12) of the payload' }),
    example: jsonObject.meta({ description: 'A payload that posts successfully as-is' }),
  })
  .meta({ id: 'LedgerEventType' });

// ── accounts ─────────────────────────────────────────────────────────────────────────────

export const accountTypeSchema = z.enum(ACCOUNT_TYPES);
export const accountSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    code: z.string(),
    name: z.string(),
    type: accountTypeSchema,
    description: z.string().nullable(),
    system: z.boolean().meta({ description: 'Seeded by the default chart and used by built-in posting rules: can be renamed, not archived or deleted' }),
    archived: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'LedgerAccount' });

const accountCode = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,19}$/, 'code must be 1-20 letters, digits, dots or dashes');
export const createAccountBody = z.object({
  entityId: z.uuid().optional(),
  code: accountCode,
  name: z.string().trim().min(1).max(120),
  type: accountTypeSchema,
  description: z.string().trim().max(500).optional(),
});
export const updateAccountBody = z.object({
  entityId: z.uuid().optional(),
  name: z.string().trim().min(1).max(120).optional(),
  description: z.string().trim().max(500).nullable().optional(),
  archived: z.boolean().optional().meta({ description: 'Archived accounts keep their history but take no new postings' }),
});
export const accountParams = z.object({ accountId: z.uuid() });
export const listAccountsQuery = z.object({ entityId: z.uuid().optional(), includeArchived: z.enum(['true', 'false']).optional() });

// ── reports ──────────────────────────────────────────────────────────────────────────────

const isoDateTime = z.iso.datetime({ offset: true });
export const journalQuery = z.object({
  entityId: z.uuid().optional(),
  accountId: z.uuid().optional().meta({ description: 'Only entries with a line on this account (all lines of those entries are returned)' }),
  eventId: z.uuid().optional(),
  from: isoDateTime.optional().meta({ description: 'effectiveAt ≥ from' }),
  to: isoDateTime.optional().meta({ description: 'effectiveAt ≤ to' }),
  page: pageParam,
  pageSize: pageSizeParam,
});
export const journalResponse = z
  .object({ entries: z.array(journalEntrySchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'LedgerJournalPage', description: 'Newest first (effectiveAt, then id, descending).' });

export const trialBalanceQuery = z.object({
  entityId: z.uuid().optional(),
  asOf: isoDateTime.optional().meta({ description: 'Include entries with effectiveAt ≤ asOf. Default: now.' }),
});
export const trialBalanceResponse = z
  .object({
    asOf: z.string(),
    rows: z.array(
      z.object({ accountId: z.uuid(), code: z.string(), name: z.string(), type: accountTypeSchema, currency: z.string(), debit: decimalString, credit: decimalString, balance: decimalString.meta({ description: 'debit − credit (signed)' }) }),
    ),
    totals: z.array(z.object({ currency: z.string(), debit: decimalString, credit: decimalString, balance: decimalString.meta({ description: 'Always zero' }) })),
  })
  .meta({ id: 'LedgerTrialBalance', description: 'Per account and currency, ordered by account code then currency. Totals per currency always balance to zero.' });

// ── settings ─────────────────────────────────────────────────────────────────────────────

export const settingsSchema = z
  .object({
    approvalThresholds: z
      .record(z.string().refine(isCurrency, 'must be a currency code'), z.string().regex(/^\d{1,40}(\.\d{1,40})?$/, 'must be a decimal string'))
      .meta({
        description: 'Currency → amount (major units). An event whose entry moves at least this much in that currency (sum of debits) is held as `pending_approval`. Empty: nothing is held.',
        example: { USD: '10000.00' },
      }),
    requireSeparateApprover: z.boolean().meta({ description: 'Four-eyes rule: the person who recorded a held event cannot approve it. Default false.' }),
  })
  .meta({ id: 'LedgerSettings' });
export const updateSettingsBody = settingsSchema.extend({
  entityId: z.uuid().optional(),
  requireSeparateApprover: z.boolean().optional().meta({ description: 'Unchanged when omitted' }),
});

export const journalCsvQuery = journalQuery.omit({ page: true, pageSize: true });

const statementLine = z.object({ accountId: z.uuid(), code: z.string(), name: z.string(), amount: decimalString });
const statementSection = z.object({ lines: z.array(statementLine).meta({ description: 'Accounts with a non-zero amount, by code' }), total: decimalString });

export const profitAndLossQuery = z.object({
  entityId: z.uuid().optional(),
  from: isoDateTime.optional().meta({ description: 'Entries with effectiveAt > from. Default: from the first entry.' }),
  to: isoDateTime.optional().meta({ description: 'Entries with effectiveAt ≤ to. Default: now.' }),
});
export const profitAndLossResponse = z
  .object({
    from: z.string().nullable(),
    to: z.string(),
    currencies: z.array(z.object({ currency: z.string(), revenue: statementSection, expenses: statementSection, netIncome: decimalString.meta({ description: 'revenue − expenses' }) })),
  })
  .meta({ id: 'LedgerProfitAndLoss', description: 'Per currency (amounts in different currencies are never added). Revenue grows by credits (contra-revenue such as returns reduces it), expenses by debits.' });

export const balanceSheetQuery = z.object({ entityId: z.uuid().optional(), asOf: isoDateTime.optional().meta({ description: 'Entries with effectiveAt ≤ asOf. Default: now.' }) });
export const balanceSheetResponse = z
  .object({
    asOf: z.string(),
    currencies: z.array(
      z.object({
        currency: z.string(),
        assets: statementSection,
        liabilities: statementSection,
        equity: statementSection.extend({ currentEarnings: decimalString.meta({ description: 'Revenue − expenses to date, not closed into retained earnings: part of equity' }) }),
        liabilitiesAndEquity: decimalString.meta({ description: 'Always equal to assets.total' }),
      }),
    ),
  })
  .meta({ id: 'LedgerBalanceSheet', description: 'Per currency. assets.total = liabilities.total + equity.total for every currency.' });

export const checkEventBody = z.object({
  entityId: z.uuid().optional(),
  type: postEventInput.shape.type,
  payload: jsonObjectInput.default({}),
  schemaVersion: z.string().min(1).max(20).optional(),
});
export const checkEventResponse = z
  .object({
    outcome: z.enum(['posted', 'pending_approval', 'unposted', 'failed']),
    errors: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).meta({ description: 'Empty unless outcome is failed; path is from the payload root (empty: the event as a whole, e.g. an archived account)' }),
    lines: z.array(z.object({ code: z.string(), name: z.string(), side: z.enum(['debit', 'credit']), amount: decimalString, currency: z.string() })).meta({ description: 'The journal lines posting would write' }),
  })
  .meta({ id: 'LedgerEventCheck' });
