import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import { actorOf, type Auth } from '../auth/index.js';
import { UnauthorizedError } from '../http/errors.js';
import * as s from './schemas.js';
import { MAX_BATCH_EVENTS } from './schemas.js';
import { assertRecordable, prepareEvent, prepareValidEvent } from './post-event.js';
import type { PostEventInput } from './schemas.js';
import { errorResult, MAX_WAITING_EVENTS, postEventGrouped, postGroup, type GroupItem } from './group-commit.js';
import { countEventsByStatus, listEvents } from './list-events.js';
import { getEvent } from './get-event.js';
import { approveEvent, rejectEvent } from './approvals.js';
import { reverseEvent } from './reverse-event.js';
import { batchReclassify } from './reclassify.js';
import { listEventTypes } from './event-types.js';
import { createAccount, deleteAccount, listAccounts, updateAccount } from './accounts.js';
import { exportJournalCsv, listJournal, MAX_CSV_LINES } from './journal-report.js';
import { readBalanceSheet, readProfitAndLoss } from './statements.js';
import { checkEvent } from './check-event.js';
import { readTrialBalance } from './trial-balance.js';
import { LONG_READ_BUSY_DOC } from '../db/read-pool.js';
import { getLedgerSettings, updateLedgerSettings } from './settings.js';

const tags = ['Ledger'];
const view = { entity: 'QBH', permission: 'LEDGER.VIEW', scope: 'read:ledger' } as const;
const post = { entity: 'QBH', permission: 'LEDGER.POST', scope: 'write:ledger' } as const;
/** Approving is a person's decision: sessions with LEDGER.APPROVE only, never API keys. */
const approve = { entity: 'QBH', permission: 'LEDGER.APPROVE' } as const;
/** Chart of accounts and approval policy: LEDGER.APPROVE for sessions, write:ledger for keys. */
const administer = { entity: 'QBH', permission: 'LEDGER.APPROVE', scope: 'write:ledger' } as const;

const postDefaults = (auth: Auth | null) => ({ source: auth?.kind === 'apiKey' ? 'api' : 'ui', actor: actorOf(auth) });

const userId = (auth: Auth | null) => {
  if (auth?.kind !== 'session') throw new UnauthorizedError('A signed-in session is required');
  return auth.userId;
};

export const ledgerRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/ledger/events',
      summary: 'List ledger events (paginated), or their counts per posting status',
      description:
        'Query parameters: `entityId`, `postingStatus` (posted | pending_approval | reversed | failed | unposted), `type`, `correlationId`, `from` / `to` (ISO date-times on the business `timestamp`), `q` (full-text search), `view=statusCounts`, `page` (1-based, default 1), `pageSize` (1–200, default 50; out of range → 400). Returns `{ events, total, page, pageSize }`, newest first; a page past the end has no events. With `view=statusCounts` returns `{ counts: { posted, pending_approval, reversed, failed, unposted }, total }` instead.',
      tags,
      access: view,
      query: s.listEventsQuery,
      response: s.listEventsResponse,
    },
    ({ ctx, entityId, query }) => {
      const filter = { postingStatus: query.postingStatus, type: query.type, correlationId: query.correlationId, from: query.from, to: query.to, q: query.q };
      if (query.view === 'statusCounts') return countEventsByStatus(ctx, entityId, filter);
      return listEvents(ctx, entityId, { ...filter, page: query.page, pageSize: query.pageSize });
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events',
      summary: 'Record a business event; the posting engine processes it at once',
      description:
        'Returns the event already processed (201): `posted` with its journal entry; `pending_approval` when its entry reaches an approval threshold (see /api/ledger/settings); `failed` with `postingError` when the payload does not satisfy its type\'s schema or the rule cannot post (the event is stored, nothing is posted); `unposted` for types without a posting rule. An unknown `type`, or one Bureau records itself (`recordable: false` in /api/ledger/event-types), is refused with 400. With `idempotencyKey`: the same key and input returns the original event with 200 and `Idempotent-Replayed: true`; the same key with different input → 409. Events arriving together are committed together (one durable transaction, each event in its own savepoint); the response is sent once the event is committed.',
      tags,
      access: post,
      body: s.postEventBody,
      response: s.ledgerEventSchema,
      status: 201,
      errors: { 409: 'idempotencyKey already used with a different request', 503: `More than ${MAX_WAITING_EVENTS} events are waiting to be posted; retry after \`Retry-After\` seconds` },
      direct: true,
    },
    async ({ ctx, res, auth, entityId, body, setStatus }) => {
      const { entityId: _ignored, ...input } = body;
      const prepared = assertRecordable(prepareValidEvent(input));
      const { event, replayed } = await postEventGrouped(ctx, { entityId, prepared, defaults: postDefaults(auth) });
      if (replayed) {
        setStatus(200);
        res.setHeader('Idempotent-Replayed', 'true');
      }
      return event;
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/batch',
      summary: 'Record up to 1,000 business events in one request, with a result per event',
      description: `Each event is handled as by POST /api/ledger/events, with the same statuses, and gets its own result in \`results\`, in order: \`{ status: 201, event }\` when recorded (its \`postingStatus\` says whether it posted), \`{ status: 200, event }\` for an idempotent replay (the same \`idempotencyKey\` and input as an earlier event, also earlier in the same batch), or \`{ status, error, details? }\` when refused (400 invalid or unknown type, 409 \`idempotencyKey\` used with a different request). One event's refusal does not affect the others. All events are committed together in one durable transaction (each in its own savepoint) before the response is sent. More than ${MAX_BATCH_EVENTS} events → 400; a body over the server's JSON limit → 413.`,
      tags,
      access: post,
      body: s.postEventsBatchBody,
      response: s.postEventsBatchResponse,
      errors: { 413: 'Request body too large' },
      direct: true,
    },
    ({ ctx, auth, entityId, body }) => {
      const defaults = postDefaults(auth);
      const results: z.input<typeof s.batchEventResultSchema>[] = new Array(body.events.length);
      const items: GroupItem[] = [];
      const positions: number[] = [];
      body.events.forEach((raw, i) => {
        try {
          items.push({ entityId, prepared: assertRecordable(prepareEvent(raw as PostEventInput)), defaults });
          positions.push(i);
        } catch (error) {
          const { status, body: err } = errorResult(ctx, error);
          results[i] = { status, ...err };
        }
      });
      if (items.length > 0) {
        postGroup(ctx, items).forEach((o, k) => {
          if (o.ok) {
            results[positions[k]] = { status: o.result.replayed ? 200 : 201, event: o.result.event };
          } else {
            const { status, body: err } = errorResult(ctx, o.error);
            results[positions[k]] = { status, ...err };
          }
        });
      }
      return { results };
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/check',
      summary: 'What posting an event would do, without recording it',
      description: 'Validates the payload against its type (errors per field) and runs the posting rule on the chart: the outcome posting would have and the journal lines it would write. Nothing is stored. An unknown `type` → 400.',
      tags,
      access: post,
      body: s.checkEventBody,
      response: s.checkEventResponse,
    },
    ({ ctx, entityId, body }) => checkEvent(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/batch-reclassify',
      summary: 'Reclassify events: reverse each one\'s journal entry and repost it under a new type',
      description:
        'Each event is handled in its own transaction: its posting entry is reversed by a linked reversing entry (the event becomes `reversed`) and a new event of `newEventType` is posted with the same payload — or with `payloads[eventId]` when given, for the fields the new type needs that the old payload lacks (its id is `newEventId`). A payload that does not fit the new type fails that event with the fields named (“Needs description, net amount”). Reversal and new posting are dated when the reclassification happens; reports as of earlier dates do not change. The new event is not held for approval again. Per-event failures (not found, already reversed, not posted, payload invalid for the new type) change nothing for that event and do not affect the others. Retrying is safe: an event already reclassified to the same type reports success with the same `newEventId` and nothing is reversed twice. An unknown `newEventType`, or one without a posting rule, → 400. A correction that would leave cash, a receivable, crypto or a payable below zero (a receivable of an invoice that was already paid) is refused for that event, with `impossibleBalances`, unless `force: true`.',
      tags,
      access: post,
      body: s.batchReclassifyBody,
      response: s.batchReclassifyResponse,
    },
    ({ ctx, auth, entityId, body }) => batchReclassify(ctx, entityId, body.eventIds, body.newEventType, actorOf(auth), body.force ?? false, body.payloads),
  ),
  route(
    { method: 'get', path: '/api/ledger/events/{eventId}', summary: 'Get one event with its journal entries', tags, access: view, params: s.eventParams, response: s.ledgerEventDetailSchema },
    ({ ctx, entityId, params }) => getEvent(ctx, entityId, params.eventId),
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/{eventId}/approve',
      summary: 'Approve an event held for approval: it is posted now',
      description: 'Only `pending_approval` events (else 409). If the event can no longer post (e.g. an account was archived meanwhile) it becomes `failed` with the reason. Session only: API keys cannot approve. With `requireSeparateApprover` on, the user who recorded the event gets 403.',
      tags,
      access: approve,
      params: s.eventParams,
      response: s.ledgerEventSchema,
      errors: { 403: 'Four-eyes rule: you recorded this event', 409: 'The event is not pending approval' },
    },
    ({ ctx, auth, entityId, params }) => approveEvent(ctx, entityId, params.eventId, userId(auth)),
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/{eventId}/reject',
      summary: 'Reject an event held for approval: nothing is posted',
      description: 'Only `pending_approval` events (else 409). The event becomes `failed` with `postingError` "Rejected: <reason>". Session only.',
      tags,
      access: approve,
      params: s.eventParams,
      body: s.rejectBody,
      response: s.ledgerEventSchema,
      errors: { 409: 'The event is not pending approval' },
    },
    ({ ctx, auth, entityId, params, body }) => rejectEvent(ctx, entityId, params.eventId, userId(auth), body.reason),
  ),
  route(
    {
      method: 'post',
      path: '/api/ledger/events/{eventId}/reverse',
      summary: 'Reverse a posted event (a linked reversing entry, dated now)',
      description: 'Only `posted` events; an event is reversed at most once (409 otherwise).',
      tags,
      access: post,
      params: s.eventParams,
      body: s.reverseBody,
      response: s.ledgerEventSchema,
      errors: { 409: 'The event is not posted or is already reversed' },
    },
    ({ ctx, auth, entityId, params, body }) => reverseEvent(ctx, entityId, params.eventId, body.reason, actorOf(auth)),
  ),
  route(
    { method: 'get', path: '/api/ledger/event-types', summary: 'The catalogue of event types: payload JSON Schema, posting rule in words, an example payload', tags, access: view, response: z.array(s.eventTypeSchema) },
    () => listEventTypes(),
  ),

  route(
    { method: 'get', path: '/api/ledger/accounts', summary: 'The chart of accounts (seeded with a small-business default)', description: 'Ordered by code. Archived accounts only with `includeArchived=true`.', tags, access: view, query: s.listAccountsQuery, response: z.array(s.accountSchema) },
    ({ ctx, entityId, query }) => listAccounts(ctx, entityId, query.includeArchived === 'true'),
  ),
  route(
    { method: 'post', path: '/api/ledger/accounts', summary: 'Add an account to the chart', tags, access: administer, body: s.createAccountBody, response: s.accountSchema, status: 201, errors: { 409: 'Account code already exists' } },
    ({ ctx, entityId, body }) => createAccount(ctx, entityId, body),
  ),
  route(
    {
      method: 'patch',
      path: '/api/ledger/accounts/{accountId}',
      summary: 'Rename, describe, archive or restore an account',
      description: 'Code and type never change once created. Accounts used by the built-in rules cannot be archived (409).',
      tags,
      access: administer,
      params: s.accountParams,
      body: s.updateAccountBody,
      response: s.accountSchema,
      errors: { 409: 'Built-in account cannot be archived' },
    },
    ({ ctx, entityId, params, body }) => updateAccount(ctx, entityId, params.accountId, body),
  ),
  route(
    {
      method: 'delete',
      path: '/api/ledger/accounts/{accountId}',
      summary: 'Delete an account that was never posted to',
      description: 'Accounts with journal lines keep their history: archive them instead (409). Built-in accounts cannot be deleted (409).',
      tags,
      access: administer,
      params: s.accountParams,
      response: z.object({ deleted: z.boolean() }),
      errors: { 409: 'Account has journal lines or is built in' },
    },
    ({ ctx, entityId, params }) => deleteAccount(ctx, entityId, params.accountId),
  ),

  route(
    { method: 'get', path: '/api/ledger/journal', summary: 'Journal entries with their lines', description: 'Filters: `accountId`, `eventId`, `from`, `to` (on effectiveAt); `page`, `pageSize` (1–200, default 50).', tags, access: view, query: s.journalQuery, response: s.journalResponse },
    ({ ctx, entityId, query }) => listJournal(ctx, entityId, query),
  ),
  route(
    {
      method: 'get',
      path: '/api/ledger/journal.csv',
      summary: 'Export the journal as CSV',
      description: `A row per journal line, oldest first, with the journal's filters (no paging): effective_at, entry_id, event_id, event_type, kind, description, line, account_code, account_name, currency, debit, credit, memo. Text a spreadsheet would run as a formula is prefixed with an apostrophe. More than ${MAX_CSV_LINES} lines → 413: export a shorter period.`,
      tags,
      access: view,
      query: s.journalCsvQuery,
      produces: 'text/csv',
      errors: { 413: 'Too many lines for one export', 503: LONG_READ_BUSY_DOC },
    },
    async ({ ctx, entityId, query, res }) => {
      const csv = await exportJournalCsv(ctx, entityId, query);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="journal.csv"');
      res.setHeader('Cache-Control', 'no-store');
      res.end(csv);
    },
  ),
  route(
    { method: 'get', path: '/api/ledger/reports/profit-and-loss', summary: 'Profit and loss for a period, per currency', tags, access: view, query: s.profitAndLossQuery, response: s.profitAndLossResponse, errors: { 400: 'from after to', 503: LONG_READ_BUSY_DOC } },
    ({ ctx, entityId, query }) => readProfitAndLoss(ctx, entityId, query),
  ),
  route(
    { method: 'get', path: '/api/ledger/reports/balance-sheet', summary: 'Balance sheet as of a date, per currency', tags, access: view, query: s.balanceSheetQuery, response: s.balanceSheetResponse, errors: { 503: LONG_READ_BUSY_DOC } },
    ({ ctx, entityId, query }) => readBalanceSheet(ctx, entityId, query),
  ),
  route(
    { method: 'get', path: '/api/ledger/trial-balance', summary: 'Trial balance per account and currency as of a date', tags, access: view, query: s.trialBalanceQuery, response: s.trialBalanceResponse, errors: { 503: LONG_READ_BUSY_DOC } },
    ({ ctx, entityId, query }) => readTrialBalance(ctx, entityId, query.asOf),
  ),
  route(
    { method: 'get', path: '/api/ledger/settings', summary: 'Ledger settings: approval thresholds', tags, access: view, response: s.settingsSchema },
    ({ ctx, entityId }) => getLedgerSettings(ctx, entityId),
  ),
  route(
    { method: 'put', path: '/api/ledger/settings', summary: 'Replace the approval thresholds', tags, access: administer, body: s.updateSettingsBody, response: s.settingsSchema },
    ({ ctx, entityId, body }) => updateLedgerSettings(ctx, entityId, { approvalThresholds: body.approvalThresholds, requireSeparateApprover: body.requireSeparateApprover }),
  ),
];
