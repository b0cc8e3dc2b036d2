import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError, HttpError } from '../http/errors.js';
import { evaluateEvent } from './evaluate.js';
import { reversePosting } from './journal.js';
import { loadEvent, updateEvent } from './load.js';
import { processNewEvent } from './post-event.js';
import type { EventRow } from './present.js';
import { findEventType } from './rules/index.js';
import { inLedgerTx } from './setup.js';
import type { Actor } from './tables.js';

export interface ReclassifyResult {
  eventId: string;
  success: boolean;
  message: string;
  newEventId?: string;
}

/**
 * Reclassifies each event, each in its own transaction: reverse its journal entry (the event
 * becomes `reversed`) and post a new event of `newEventType` with the same payload. A failure
 * touches nothing and is reported per event. Retrying a batch is safe: an event already
 * reclassified to the same type reports success with the same newEventId and posts nothing.
 */
export function batchReclassify(ctx: Context, entityId: string, eventIds: string[], newEventType: string, actor: Actor | null = null) {
  const def = findEventType(newEventType);
  if (!def) throw new BadRequestError(`Unknown event type "${newEventType}"`);
  if (!def.post) throw new BadRequestError(`${newEventType} has no posting rule; reclassify to a type that posts`);
  const results = eventIds.map((eventId) => reclassifyOne(ctx, entityId, eventId, newEventType, actor));
  const succeeded = results.filter((r) => r.success).length;
  return { summary: { total: results.length, succeeded, failed: results.length - succeeded }, results };
}

function reclassifyOne(ctx: Context, entityId: string, eventId: string, newEventType: string, actor: Actor | null): ReclassifyResult {
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
      if (original.type === newEventType) return { eventId, success: false, message: `Event is already of type ${newEventType}` };
      const def = findEventType(newEventType)!;
      const check = evaluateEvent(db, entityId, newEventType, original.payload, def.schemaVersion);
      if (check.outcome !== 'post') return { eventId, success: false, message: check.outcome === 'failed' ? check.error : `${newEventType} does not post` };

      const now = nowIso(ctx);
      const replacement: EventRow = {
        ...original,
        id: ctx.ids.next(),
        type: newEventType,
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
      return { eventId, success: true, message: `Reversed and reposted as ${newEventType}`, newEventId: replacement.id };
    });
  } catch (err) {
    if (err instanceof HttpError) return { eventId, success: false, message: err.status === 404 ? 'Event not found' : err.message };
    ctx.log.error({ err, eventId }, 'ledger reclassification failed');
    return { eventId, success: false, message: 'Internal error; nothing was changed for this event' };
  }
}
