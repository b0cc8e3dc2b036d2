import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { loadEvent } from './load.js';
import { presentEntries, presentEvent } from './present.js';
import { ledgerEntries } from './tables.js';

/** One event with its journal entries (the posting and, if any, its reversal). */
export function getEvent(ctx: Context, entityId: string, eventId: string) {
  const row = loadEvent(ctx.db, entityId, eventId);
  const entries = ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.entityId, entityId), eq(ledgerEntries.eventId, eventId)))
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
    .all()
    .map((e) => ({ ...e, eventType: row.type }));
  return { ...presentEvent(row), entries: presentEntries(ctx.db, entityId, entries) };
}
