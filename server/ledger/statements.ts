// Financial statements from the journal: profit and loss for a period and the balance sheet as
// of a date, per currency (amounts in different currencies are never added up). Both are sums of
// the same exact line totals the trial balance uses.
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError } from '../http/errors.js';
import { invariant } from './assert.js';
import { formatMinor } from './money.js';
import { ensureLedger } from './setup.js';
import { ledgerAccounts, type AccountType } from './tables.js';
import { readParts, readPartsInWorker, type Part } from './balances.js';

type Account = typeof ledgerAccounts.$inferSelect;
interface Line {
  accountId: string;
  code: string;
  name: string;
  amount: string;
}

/** Net movement per account and currency, signed the way its type grows (assets and expenses by debits). */
function netByAccount(parts: Part[], accounts: Map<string, Account>): Map<string, Map<string, bigint>> {
  const out = new Map<string, Map<string, bigint>>(); // currency → account → amount
  for (const p of parts) {
    const a = accounts.get(p.accountId);
    invariant(a, 'every line names an account of its entity');
    const debitNormal = a.type === 'asset' || a.type === 'expense';
    const signed = (p.side === 'debit') === debitNormal ? BigInt(p.total) : -BigInt(p.total);
    const perAccount = out.get(p.currency) ?? out.set(p.currency, new Map()).get(p.currency)!;
    perAccount.set(p.accountId, (perAccount.get(p.accountId) ?? 0n) + signed);
  }
  return out;
}

function accountsOf(db: Queryable, entityId: string): Map<string, Account> {
  return new Map(db.select().from(ledgerAccounts).where(eq(ledgerAccounts.entityId, entityId)).all().map((a) => [a.id, a]));
}

/** The accounts of one type with a non-zero amount, by code, and the type's total. */
function section(accounts: Map<string, Account>, perAccount: Map<string, bigint>, type: AccountType, currency: string): { lines: Line[]; total: bigint } {
  const lines = [...perAccount]
    .map(([id, amount]) => ({ a: accounts.get(id)!, amount }))
    .filter(({ a, amount }) => a.type === type && amount !== 0n)
    .sort((x, y) => x.a.code.localeCompare(y.a.code))
    .map(({ a, amount }) => ({ accountId: a.id, code: a.code, name: a.name, amount: formatMinor(amount, currency) }));
  const total = [...perAccount].filter(([id]) => accounts.get(id)!.type === type).reduce((n, [, amount]) => n + amount, 0n);
  return { lines, total };
}

function readTx<T>(ctx: Context, entityId: string, fn: (db: Queryable) => T): T {
  return write(ctx, (db) => {
    ensureLedger(ctx, db, entityId);
    return fn(db);
  });
}

/** Revenue and expenses per currency from the totals of the period. */
function profitAndLossOf(from: string | undefined, to: string, parts: Part[], accounts: Map<string, Account>) {
  const currencies = [...netByAccount(parts, accounts)].sort(([x], [y]) => x.localeCompare(y));
  return {
    from: from ?? null,
    to,
    currencies: currencies.map(([currency, perAccount]) => {
      const revenue = section(accounts, perAccount, 'revenue', currency);
      const expenses = section(accounts, perAccount, 'expense', currency);
      return {
        currency,
        revenue: { lines: revenue.lines, total: formatMinor(revenue.total, currency) },
        expenses: { lines: expenses.lines, total: formatMinor(expenses.total, currency) },
        netIncome: formatMinor(revenue.total - expenses.total, currency),
      };
    }),
  };
}

/**
 * Assets, liabilities and equity per currency from the totals up to a date. Earnings not yet
 * closed into retained earnings (revenue − expenses to date) are shown as their own equity line,
 * so assets = liabilities + equity holds for every currency (asserted).
 */
function balanceSheetOf(asOf: string, parts: Part[], accounts: Map<string, Account>) {
  const currencies = [...netByAccount(parts, accounts)].sort(([x], [y]) => x.localeCompare(y));
  return {
    asOf,
    currencies: currencies.map(([currency, perAccount]) => {
      const assets = section(accounts, perAccount, 'asset', currency);
      const liabilities = section(accounts, perAccount, 'liability', currency);
      const equity = section(accounts, perAccount, 'equity', currency);
      const earnings = section(accounts, perAccount, 'revenue', currency).total - section(accounts, perAccount, 'expense', currency).total;
      const equityTotal = equity.total + earnings;
      invariant(assets.total === liabilities.total + equityTotal, `balance sheet in ${currency}: assets equal liabilities plus equity`);
      return {
        currency,
        assets: { lines: assets.lines, total: formatMinor(assets.total, currency) },
        liabilities: { lines: liabilities.lines, total: formatMinor(liabilities.total, currency) },
        equity: { lines: equity.lines, currentEarnings: formatMinor(earnings, currency), total: formatMinor(equityTotal, currency) },
        liabilitiesAndEquity: formatMinor(liabilities.total + equityTotal, currency),
      };
    }),
  };
}

function periodOf(ctx: Context, q: { from?: string; to?: string }) {
  const to = q.to ? new Date(q.to).toISOString() : nowIso(ctx);
  const from = q.from ? new Date(q.from).toISOString() : undefined;
  if (from && from > to) throw new BadRequestError('from must not be after to');
  return { from, to };
}

/** Revenue and expenses of the entries dated after `from` up to `to` (default: from the start, to now). */
export function getProfitAndLoss(ctx: Context, entityId: string, q: { from?: string; to?: string }) {
  const { from, to } = periodOf(ctx, q);
  return readTx(ctx, entityId, (db) => profitAndLossOf(from, to, readParts(db, entityId, to, from), accountsOf(db, entityId)));
}

/** Assets, liabilities and equity as of a date (see balanceSheetOf). */
export function getBalanceSheet(ctx: Context, entityId: string, q: { asOf?: string }) {
  const asOf = q.asOf ? new Date(q.asOf).toISOString() : nowIso(ctx);
  return readTx(ctx, entityId, (db) => balanceSheetOf(asOf, readParts(db, entityId, asOf), accountsOf(db, entityId)));
}

/*
 * The API's routes read the same statements with the totals read by a read worker, so a long
 * history never holds up other requests. The accounts are read after the totals: every account a
 * line names is then there (an account with lines is never deleted).
 */

/** Profit and loss (as getProfitAndLoss), its totals read off the API's thread. */
export async function readProfitAndLoss(ctx: Context, entityId: string, q: { from?: string; to?: string }) {
  const { from, to } = periodOf(ctx, q);
  write(ctx, (tx) => ensureLedger(ctx, tx, entityId));
  const parts = await readPartsInWorker(ctx, entityId, to, from);
  return profitAndLossOf(from, to, parts, accountsOf(ctx.db, entityId));
}

/** The balance sheet (as getBalanceSheet), its totals read off the API's thread. */
export async function readBalanceSheet(ctx: Context, entityId: string, q: { asOf?: string }) {
  const asOf = q.asOf ? new Date(q.asOf).toISOString() : nowIso(ctx);
  write(ctx, (tx) => ensureLedger(ctx, tx, entityId));
  const parts = await readPartsInWorker(ctx, entityId, asOf);
  return balanceSheetOf(asOf, parts, accountsOf(ctx.db, entityId));
}
