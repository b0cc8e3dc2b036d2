import { and, asc, count, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { presentEntries } from './present.js';
import { PayloadTooLargeError } from '../http/errors.js';
import { formatMinor } from './money.js';
import { countEntries } from './entry-counts.js';
import { ledgerAccounts, ledgerEntries, ledgerEvents, ledgerLines } from './tables.js';

export interface JournalFilter {
  accountId?: string;
  eventId?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** The entries the filter selects (an entry is in when any of its lines is on `accountId`). */
function journalScope(ctx: Context, entityId: string, f: Omit<JournalFilter, 'page' | 'pageSize'>) {
  const onAccount = f.accountId
    ? inArray(
        ledgerEntries.id,
        ctx.db
          .selectDistinct({ id: ledgerLines.entryId })
          .from(ledgerLines)
          .where(and(eq(ledgerLines.entityId, entityId), eq(ledgerLines.accountId, f.accountId))),
      )
    : undefined;
  return and(
    eq(ledgerEntries.entityId, entityId),
    onAccount,
    f.eventId ? eq(ledgerEntries.eventId, f.eventId) : undefined,
    f.from ? gte(ledgerEntries.effectiveAt, new Date(f.from).toISOString()) : undefined,
    f.to ? lte(ledgerEntries.effectiveAt, new Date(f.to).toISOString()) : undefined,
  );
}

/** Journal entries with their lines, newest first, filterable by account, event and date. */
export function listJournal(ctx: Context, entityId: string, f: JournalFilter) {
  const cond = journalScope(ctx, entityId, f);
  // By date alone, the total comes from the per-day counts (counting every entry took 35 ms at a million lines).
  const total =
    f.accountId || f.eventId
      ? (ctx.db.select({ n: count() }).from(ledgerEntries).where(cond).get()?.n ?? 0)
      : countEntries(ctx.db, entityId, f.from && new Date(f.from).toISOString(), f.to && new Date(f.to).toISOString());
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

/** At most this many lines in one export: a larger journal is exported a period at a time. */
export const MAX_CSV_LINES = 200_000;
const CSV_HEADER = ['effective_at', 'entry_id', 'event_id', 'event_type', 'kind', 'description', 'line', 'account_code', 'account_name', 'currency', 'debit', 'credit', 'memo'];

/**
 * One CSV field (RFC 4180). A text that a spreadsheet would run as a formula (=, +, -, @ first)
 * is prefixed with an apostrophe: an exported description must never execute on opening.
 */
export function csvField(value: string | null): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The journal as CSV, a row per line, oldest first (the same filters as the journal, no paging). */
export function exportJournalCsv(ctx: Context, entityId: string, f: Omit<JournalFilter, 'page' | 'pageSize'>): string {
  const rows = ctx.db
    .select({ entry: ledgerEntries, eventType: ledgerEvents.type, line: ledgerLines, code: ledgerAccounts.code, name: ledgerAccounts.name })
    .from(ledgerEntries)
    .innerJoin(ledgerEvents, eq(ledgerEvents.id, ledgerEntries.eventId))
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(journalScope(ctx, entityId, f))
    .orderBy(asc(ledgerEntries.effectiveAt), asc(ledgerEntries.id), asc(ledgerLines.position))
    .limit(MAX_CSV_LINES + 1)
    .all();
  if (rows.length > MAX_CSV_LINES) throw new PayloadTooLargeError(`More than ${MAX_CSV_LINES} journal lines: export a shorter period (from, to)`);
  const out = [CSV_HEADER.join(',')];
  for (const r of rows) {
    const amount = formatMinor(BigInt(r.line.amount), r.line.currency);
    const fields = [r.entry.effectiveAt, r.entry.id, r.entry.eventId, r.eventType, r.entry.kind, r.entry.description, String(r.line.position + 1), r.code, r.name, r.line.currency, r.line.side === 'debit' ? amount : '', r.line.side === 'credit' ? amount : '', r.line.memo];
    out.push(fields.map(csvField).join(','));
  }
  return `${out.join('\r\n')}\r\n`;
}
