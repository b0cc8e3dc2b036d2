import { and, asc, count, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { presentEntries } from './present.js';
import { PayloadTooLargeError } from '../http/errors.js';
import { formatMinor } from './money.js';
import { countEntries } from './entry-counts.js';
import { ledgerAccounts, ledgerEntries, ledgerEvents, ledgerLines } from './tables.js';
import { readInWorker, type ReadQuery } from '../db/read-pool.js';

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

/** The columns the export reads, in this order (its rows come back from the worker as arrays). */
const csvColumns = {
  effectiveAt: ledgerEntries.effectiveAt,
  entryId: ledgerEntries.id,
  eventId: ledgerEntries.eventId,
  eventType: ledgerEvents.type,
  kind: ledgerEntries.kind,
  description: ledgerEntries.description,
  position: ledgerLines.position,
  code: ledgerAccounts.code,
  name: ledgerAccounts.name,
  currency: ledgerLines.currency,
  side: ledgerLines.side,
  amount: ledgerLines.amount,
  memo: ledgerLines.memo,
};
type CsvRow = [string, string, string, string, string, string, number, string, string, string, 'debit' | 'credit', string, string | null];

function csvLine(r: CsvRow): string {
  const [effectiveAt, entryId, eventId, eventType, kind, description, position, code, name, currency, side, amount, memo] = r;
  const money = formatMinor(BigInt(amount), currency);
  const fields = [effectiveAt, entryId, eventId, eventType, kind, description, String(position + 1), code, name, currency, side === 'debit' ? money : '', side === 'credit' ? money : '', memo];
  return fields.map(csvField).join(',');
}

function csvQuery(ctx: Context, entityId: string, f: Omit<JournalFilter, 'page' | 'pageSize'>): ReadQuery {
  const query = ctx.db
    .select(csvColumns)
    .from(ledgerEntries)
    .innerJoin(ledgerEvents, eq(ledgerEvents.id, ledgerEntries.eventId))
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(journalScope(ctx, entityId, f))
    .orderBy(asc(ledgerEntries.effectiveAt), asc(ledgerEntries.id), asc(ledgerLines.position))
    .limit(MAX_CSV_LINES + 1)
    .toSQL();
  return { sql: query.sql, params: query.params, raw: true };
}

/** The CSV text, built from the rows a chunk at a time. */
function csvBuilder() {
  const out = [CSV_HEADER.join(',')];
  let lines = 0;
  return {
    add(rows: unknown[]) {
      lines += rows.length;
      // Past the limit the export is refused: formatting more would be wasted.
      if (lines > MAX_CSV_LINES) throw new PayloadTooLargeError(`More than ${MAX_CSV_LINES} journal lines: export a shorter period (from, to)`);
      for (const r of rows) out.push(csvLine(r as CsvRow));
    },
    text: () => `${out.join('\r\n')}\r\n`,
  };
}

/**
 * The journal as CSV, a row per line, oldest first (the same filters as the journal, no paging).
 * Read by a worker thread on its own connection and formatted a chunk at a time, so the API
 * answers other requests while a large export is made.
 */
export async function exportJournalCsv(ctx: Context, entityId: string, f: Omit<JournalFilter, 'page' | 'pageSize'>): Promise<string> {
  const csv = csvBuilder();
  await readInWorker(ctx, csvQuery(ctx, entityId, f), csv.add);
  return csv.text();
}

/** The same CSV read here and now, on the server's connection: for a caller that reads other rows in the same moment (a business export). */
export function exportJournalCsvNow(ctx: Context, entityId: string, f: Omit<JournalFilter, 'page' | 'pageSize'>): string {
  const csv = csvBuilder();
  const q = csvQuery(ctx, entityId, f);
  csv.add(ctx.sqlite.prepare(q.sql).raw(true).all(...q.params));
  return csv.text();
}
