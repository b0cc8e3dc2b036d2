import { and, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Db } from '../db/open.js';
import { invariant } from './assert.js';
import { formatMinor } from './money.js';
import { ensureLedger } from './setup.js';
import { ledgerAccounts, ledgerEntries, ledgerLines } from './tables.js';

interface Sums {
  debit: bigint;
  credit: bigint;
}
interface Part {
  accountId: string;
  currency: string;
  side: 'debit' | 'credit';
  total: string;
}

/**
 * Debit and credit totals per account and currency from every entry dated up to `asOf`.
 * Amounts are exact: SQLite sums the ones that fit 64 bits (its sum() raises on overflow,
 * then everything is summed as bigint here); longer ones are always summed here. The totals
 * of each currency must net to zero (asserted).
 */
export function getTrialBalance(ctx: Context, entityId: string, asOf?: string) {
  const at = asOf ? new Date(asOf).toISOString() : nowIso(ctx);
  return ctx.db.transaction((tx) => {
    const db = tx as unknown as Db;
    ensureLedger(ctx, db, entityId);
    const perAccount = new Map<string, Sums>();
    const perCurrency = new Map<string, Sums>();
    for (const p of readParts(db, entityId, at)) {
      const amount = BigInt(p.total);
      for (const [map, key] of [[perAccount, `${p.accountId}|${p.currency}`], [perCurrency, p.currency]] as const) {
        const sums = map.get(key) ?? map.set(key, { debit: 0n, credit: 0n }).get(key)!;
        sums[p.side] += amount;
      }
    }
    for (const [currency, s] of perCurrency) invariant(s.debit === s.credit, `trial balance in ${currency} sums to zero`);
    const accounts = new Map(db.select().from(ledgerAccounts).where(eq(ledgerAccounts.entityId, entityId)).all().map((a) => [a.id, a]));
    const rows = [...perAccount].map(([key, s]) => {
      const [accountId, currency] = key.split('|');
      const a = accounts.get(accountId)!;
      return { accountId, code: a.code, name: a.name, type: a.type, currency, ...money(s, currency) };
    });
    rows.sort((x, y) => x.code.localeCompare(y.code) || x.currency.localeCompare(y.currency));
    const totals = [...perCurrency].map(([currency, s]) => ({ currency, ...money(s, currency) })).sort((x, y) => x.currency.localeCompare(y.currency));
    return { asOf: at, rows, totals };
  });
}

/**
 * Partial sums per account, currency and side of the entries dated in (after, at] (after: the
 * beginning when absent); `only` narrows them to one account in one currency.
 */
export function readParts(db: Db, entityId: string, at: string, after?: string, only?: { accountId: string; currency: string }): Part[] {
  const scope = and(
    eq(ledgerLines.entityId, entityId),
    lte(ledgerEntries.effectiveAt, at),
    after ? gt(ledgerEntries.effectiveAt, after) : undefined,
    only ? and(eq(ledgerLines.accountId, only.accountId), eq(ledgerLines.currency, only.currency)) : undefined,
  );
  const fits = sql`length(${ledgerLines.amount}) <= 18`; // < 10^18 < 2^63
  const lines = (where: SQL | undefined) =>
    db
      .select({ accountId: ledgerLines.accountId, currency: ledgerLines.currency, side: ledgerLines.side, total: ledgerLines.amount })
      .from(ledgerLines)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
      .where(where)
      .all();
  const long = lines(and(scope, sql`not (${fits})`));
  try {
    const summed = db
      .select({ accountId: ledgerLines.accountId, currency: ledgerLines.currency, side: ledgerLines.side, total: sql<string>`cast(sum(cast(${ledgerLines.amount} as integer)) as text)` })
      .from(ledgerLines)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
      .where(and(scope, fits))
      .groupBy(ledgerLines.accountId, ledgerLines.currency, ledgerLines.side)
      .all();
    return [...summed, ...long];
  } catch (err) {
    if (!/integer overflow/i.test(String((err as Error).message))) throw err;
    return [...lines(and(scope, fits)), ...long];
  }
}

/** Debits − credits of one account in one currency over the whole journal, summed as the trial balance sums. */
export function netDebitOf(db: Db, entityId: string, accountId: string, currency: string): bigint {
  return readParts(db, entityId, '9999-12-31T23:59:59.999Z', undefined, { accountId, currency }).reduce((n, p) => n + (p.side === 'debit' ? BigInt(p.total) : -BigInt(p.total)), 0n);
}

function money(s: Sums, currency: string) {
  return { debit: formatMinor(s.debit, currency), credit: formatMinor(s.credit, currency), balance: formatMinor(s.debit - s.credit, currency) };
}
