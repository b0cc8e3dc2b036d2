import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, ConflictError, HttpError } from '../http/errors.js';
import { NEVER_NEGATIVE } from './chart.js';
import { entryIdOf } from './ids.js';
import { formatMinor } from './money.js';
import { evaluateEvent } from './evaluate.js';
import { reversePosting } from './journal.js';
import { loadEvent, updateEvent } from './load.js';
import { processNewEvent } from './post-event.js';
import type { EventRow } from './present.js';
import { findEventType } from './rules/index.js';
import { describeIssues, payloadIssues } from './payload-issues.js';
import { inLedgerTx } from './setup.js';
import { netDebitOf } from './balances.js';
import { ledgerAccounts, ledgerLines, type Actor } from './tables.js';

export interface ImpossibleBalance {
  accountId: string;
  code: string;
  name: string;
  currency: string;
  /** The balance the correction would leave, signed the way the account normally grows (negative: impossible). */
  balance: string;
}

export interface ReclassifyResult {
  eventId: string;
  success: boolean;
  message: string;
  newEventId?: string;
  impossibleBalances?: ImpossibleBalance[];
}

/** A correction that would leave a balance no business can have; refused unless forced. */
class ImpossibleBalanceError extends ConflictError {
  constructor(readonly balances: ImpossibleBalance[]) {
    const first = balances[0];
    super(`Would leave ${first.name} (${first.code}) at ${first.balance} ${first.currency}${balances.length > 1 ? ` and ${balances.length - 1} more` : ''} — already settled? Reclassify with force to do it anyway`);
  }
}

/**
 * Accounts that can never be negative (NEVER_NEGATIVE: cash, receivables, crypto, payables) that
 * the correction leaves below zero (a receivable because the invoice had been paid): each a
 * balance no business has. Only a balance the correction lowered counts.
 */
function impossibleBalancesAfter(db: Queryable, entityId: string, entryIds: string[]): ImpossibleBalance[] {
  const moved = db.select().from(ledgerLines).where(and(eq(ledgerLines.entityId, entityId), inArray(ledgerLines.entryId, entryIds))).all();
  const out: ImpossibleBalance[] = [];
  for (const key of new Set(moved.map((l) => `${l.accountId}|${l.currency}`))) {
    const [accountId, currency] = key.split('|');
    const account = db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, accountId)).get()!;
    if (!NEVER_NEGATIVE.has(account.code) || (account.type !== 'asset' && account.type !== 'liability')) continue;
    const sign = (side: string) => ((side === 'debit') === (account.type === 'asset') ? 1n : -1n);
    const delta = moved.filter((l) => l.accountId === accountId && l.currency === currency).reduce((n, l) => n + sign(l.side) * BigInt(l.amount), 0n);
    if (delta >= 0n) continue;
    const after = sign('debit') * netDebitOf(db, entityId, accountId, currency);
    if (after < 0n) out.push({ accountId, code: account.code, name: account.name, currency, balance: formatMinor(after, currency) });
  }
  return out.sort((x, y) => x.code.localeCompare(y.code));
}

/**
 * Reclassifies each event, each in its own transaction: reverse its journal entry (the event
 * becomes `reversed`) and post a new event of `newEventType` with the same payload, or the one given
 * for it in `payloads` (the fields the new type needs that the old one lacked). A failure
 * touches nothing and is reported per event. Retrying a batch is safe: an event already
 * reclassified to the same type reports success with the same newEventId and posts nothing.
 */
export function batchReclassify(ctx: Context, entityId: string, eventIds: string[], newEventType: string, actor: Actor | null = null, force = false, payloads: Record<string, Record<string, unknown>> = {}) {
  const def = findEventType(newEventType);
  if (!def) throw new BadRequestError(`Unknown event type "${newEventType}"`);
  if (!def.post) throw new BadRequestError(`${newEventType} has no posting rule; reclassify to a type that posts`);
  const results = eventIds.map((eventId) => reclassifyOne(ctx, entityId, eventId, newEventType, actor, force, payloads[eventId]));
  const succeeded = results.filter((r) => r.success).length;
  return { summary: { total: results.length, succeeded, failed: results.length - succeeded }, results };
}

function reclassifyOne(ctx: Context, entityId: string, eventId: string, newEventType: string, actor: Actor | null, force: boolean, newPayload?: Record<string, unknown>): ReclassifyResult {
  try {
    return inLedgerTx(ctx, entityId, (db) => {
      const original = loadEvent(db, entityId, eventId);
      if (original.postingStatus === 'reversed') {
        if (original.reclassifiedTo) {
          const replacement = loadEvent(db, entityId, original.reclassifiedTo);
          if (replacement.type === newEventType) return { eventId, success: true, message: `Already reclassified as ${newEventType}`, newEventId: replacement.id };
        }
        return { eventId, success: false, message: 'Event is already reversed' };
      }
      if (original.postingStatus !== 'posted') return { eventId, success: false, message: `Only posted events can be reclassified (status is ${original.postingStatus})` };
      if (original.type === newEventType && !newPayload) return { eventId, success: false, message: `Event is already of type ${newEventType}` };
      const def = findEventType(newEventType)!;
      const payload = newPayload ?? original.payload;
      // The fields the new type needs, named: the person fills them in and tries again.
      const fits = def.payload.safeParse(payload);
      if (!fits.success) return { eventId, success: false, message: `${def.title} ${newPayload ? 'payload' : 'needs more than this event has'}: ${describeIssues(payloadIssues(fits.error, payload))}` };
      const check = evaluateEvent(db, entityId, newEventType, payload, def.schemaVersion);
      if (check.outcome !== 'post') return { eventId, success: false, message: check.outcome === 'failed' ? check.error : `${newEventType} does not post` };

      const now = nowIso(ctx);
      const replacement: EventRow = {
        ...original,
        id: ctx.ids.next(),
        type: newEventType,
        payload,
        schemaVersion: def.schemaVersion,
        idempotencyKey: null,
        inputHash: original.inputHash,
        recordedBy: actor,
        postingStatus: 'unposted',
        postingError: null,
        reclassifiedFrom: original.id,
        reclassifiedTo: null,
        decidedBy: null,
        decidedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      const reversalEntryId = reversePosting(ctx, db, entityId, original.id, `reclassified as ${newEventType}`);
      updateEvent(db, original, { postingStatus: 'reversed', reclassifiedTo: replacement.id, updatedAt: now });
      ctx.events.record(db, {
        entityId,
        type: 'ledger.event.reversed',
        data: { eventId: original.id, eventType: original.type, postingStatus: 'reversed', reversalEntryId, reclassifiedTo: replacement.id, newEventType },
      });
      // The original was already approved when it posted, so the replacement is not held again.
      // Corrections are booked when they are made (reversal and new posting dated now), so
      // reports as of earlier dates never change; the event keeps its business timestamp.
      const posted = processNewEvent(ctx, db, replacement, { skipApproval: true, effectiveAt: now });
      if (posted.postingStatus !== 'posted') throw new Error(`reclassified event did not post: ${posted.postingError ?? posted.postingStatus}`);
      const impossible = impossibleBalancesAfter(db, entityId, [reversalEntryId, entryIdOf(replacement.id, 'posting')]);
      if (impossible.length && !force) throw new ImpossibleBalanceError(impossible); // rolls this event's correction back
      return { eventId, success: true, message: `Reversed and reposted as ${newEventType}`, newEventId: replacement.id };
    });
  } catch (err) {
    if (err instanceof ImpossibleBalanceError) return { eventId, success: false, message: err.message, impossibleBalances: err.balances };
    if (err instanceof HttpError) return { eventId, success: false, message: err.status === 404 ? 'Event not found' : err.message };
    ctx.log.error({ err, eventId }, 'ledger reclassification failed');
    return { eventId, success: false, message: 'Internal error; nothing was changed for this event' };
  }
}
