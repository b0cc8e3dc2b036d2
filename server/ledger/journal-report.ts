import { and, count, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { presentEntries } from './present.js';
import { ledgerEntries, ledgerEvents, ledgerLines } from './tables.js';

export interface JournalFilter {
  accountId?: string;
  eventId?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** Journal entries with their lines, newest first, filterable by account, event and date. */
export function listJournal(ctx: Context, entityId: string, f: JournalFilter) {
  const onAccount = f.accountId
    ? inArray(
        ledgerEntries.id,
        ctx.db
          .selectDistinct({ id: ledgerLines.entryId })
          .from(ledgerLines)
          .where(and(eq(ledgerLines.entityId, entityId), eq(ledgerLines.accountId, f.accountId))),
      )
    : undefined;
  const cond = and(
    eq(ledgerEntries.entityId, entityId),
    onAccount,
    f.eventId ? eq(ledgerEntries.eventId, f.eventId) : undefined,
    f.from ? gte(ledgerEntries.effectiveAt, new Date(f.from).toISOString()) : undefined,
    f.to ? lte(ledgerEntries.effectiveAt, new Date(f.to).toISOString()) : undefined,
  );
  const total = ctx.db.select({ n: count() }).from(ledgerEntries).where(cond).get()?.n ?? 0;
  const rows = ctx.db
    .select({ entry: ledgerEntries, eventType: ledgerEvents.type })
    .from(ledgerEntries)
    .innerJoin(ledgerEvents, eq(ledgerEvents.id, ledgerEntries.eventId))
    .where(cond)
    .orderBy(desc(ledgerEntries.effectiveAt), desc(ledgerEntries.id))
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .all();
  return { entries: presentEntries(ctx.db, entityId, rows.map((r) => ({ ...r.entry, eventType: r.eventType }))), total, page: f.page, pageSize: f.pageSize };
}
