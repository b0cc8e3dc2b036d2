import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { ConflictError, ForbiddenError } from '../http/errors.js';
import { evaluateEvent } from './evaluate.js';
import { writeEntry } from './journal.js';
import { loadEvent, updateEvent } from './load.js';
import { presentEvent } from './present.js';
import { inLedgerTx, readSettings } from './setup.js';

/**
 * Approves a held event: it is posted now (journal dated at the event's timestamp). If it can
 * no longer post (e.g. an account was archived meanwhile) it becomes `failed` with the reason.
 * With the four-eyes rule on, the person who recorded the event cannot approve it (403).
 */
export function approveEvent(ctx: Context, entityId: string, eventId: string, userId: string) {
  return inLedgerTx(ctx, entityId, (db) => {
    const row = loadEvent(db, entityId, eventId);
    if (row.postingStatus !== 'pending_approval') throw new ConflictError(`Only events pending approval can be approved (status is ${row.postingStatus})`);
    if (readSettings(db, entityId).requireSeparateApprover && row.recordedBy?.type === 'user' && row.recordedBy.id === userId) {
      throw new ForbiddenError('You recorded this event; another approver must approve it');
    }
    const now = nowIso(ctx);
    const evaluation = evaluateEvent(db, entityId, row.type, row.payload, row.schemaVersion);
    if (evaluation.outcome !== 'post') {
      const error = evaluation.outcome === 'failed' ? evaluation.error : 'The event type no longer posts';
      const failed = updateEvent(db, row, { postingStatus: 'failed', postingError: error, decidedBy: userId, decidedAt: now, updatedAt: now });
      ctx.events.record(db, { entityId, type: 'ledger.event.failed', data: { eventId, eventType: row.type, postingStatus: 'failed', postingError: error } });
      return presentEvent(failed);
    }
    const entryId = writeEntry(ctx, db, { entityId, eventId, kind: 'posting', description: evaluation.description, effectiveAt: row.timestamp, lines: evaluation.lines });
    const posted = updateEvent(db, row, { postingStatus: 'posted', postingError: null, decidedBy: userId, decidedAt: now, updatedAt: now });
    ctx.events.record(db, { entityId, type: 'ledger.event.posted', data: { eventId, eventType: row.type, postingStatus: 'posted', entryId, approvedBy: userId } });
    return presentEvent(posted);
  });
}

/** Rejects a held event: nothing is posted and it becomes `failed` with the reason. */
export function rejectEvent(ctx: Context, entityId: string, eventId: string, userId: string, reason?: string) {
  return inLedgerTx(ctx, entityId, (db) => {
    const row = loadEvent(db, entityId, eventId);
    if (row.postingStatus !== 'pending_approval') throw new ConflictError(`Only events pending approval can be rejected (status is ${row.postingStatus})`);
    const now = nowIso(ctx);
    const error = reason ? `Rejected: ${reason}` : 'Rejected by an approver';
    const failed = updateEvent(db, row, { postingStatus: 'failed', postingError: error, decidedBy: userId, decidedAt: now, updatedAt: now });
    ctx.events.record(db, { entityId, type: 'ledger.event.failed', data: { eventId, eventType: row.type, postingStatus: 'failed', postingError: error, rejectedBy: userId } });
    return presentEvent(failed);
  });
}
