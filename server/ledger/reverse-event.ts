import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { reversePosting } from './journal.js';
import { loadEvent, updateEvent } from './load.js';
import { presentEvent } from './present.js';
import { inLedgerTx } from './setup.js';
import type { Actor } from './tables.js';

/**
 * Reverses a posted event (Formance's "revert"): appends the entry that undoes its posting,
 * dated now, and marks it `reversed`. An event is reversed at most once (409 after that).
 */
export function reverseEvent(ctx: Context, entityId: string, eventId: string, reason?: string, actor: Actor | null = null) {
  return inLedgerTx(ctx, entityId, (db) => {
    const row = loadEvent(db, entityId, eventId);
    if (row.postingStatus === 'reversed') throw new ConflictError('Event is already reversed');
    if (row.postingStatus !== 'posted') throw new ConflictError(`Only posted events can be reversed (status is ${row.postingStatus})`);
    // Who reversed it and why stay with the journal: the reversing entry's description says both.
    const entryId = reversePosting(ctx, db, entityId, eventId, [reason ?? 'reversed', actor ? `by ${actor.name}` : null].filter(Boolean).join(', '));
    const now = nowIso(ctx);
    const reversed = updateEvent(db, row, { postingStatus: 'reversed', updatedAt: now });
    ctx.events.record(db, { entityId, type: 'ledger.event.reversed', data: { eventId, eventType: row.type, postingStatus: 'reversed', reversalEntryId: entryId, ...(reason ? { reason } : {}), ...(actor ? { actor } : {}) } });
    return presentEvent(reversed);
  });
}
