import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/tx.js';
import { NotFoundError } from '../http/errors.js';
import { ledgerEvents } from './tables.js';
import type { EventRow } from './present.js';

/** The event with this id in this entity; another entity's id is "not found". */
export function loadEvent(db: Queryable, entityId: string, eventId: string): EventRow {
  const row = db.select().from(ledgerEvents).where(and(eq(ledgerEvents.entityId, entityId), eq(ledgerEvents.id, eventId))).get();
  if (!row) throw new NotFoundError('Ledger event not found');
  return row;
}

export function updateEvent(db: Queryable, row: EventRow, changes: Partial<EventRow>): EventRow {
  db.update(ledgerEvents)
    .set(changes)
    .where(and(eq(ledgerEvents.entityId, row.entityId), eq(ledgerEvents.id, row.id)))
    .run();
  return { ...row, ...changes };
}
