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
import { readParts } from './balances.js';

type Account = typeof ledgerAccounts.$inferSelect;
interface Line {
  accountId: string;
  code: string;
  name: string;
  amount: string;
}

/** Net movement per account and currency, signed the way its type grows (assets and expenses by debits). */
function netByAccount(db: Queryable, entityId: string, accounts: Map<string, Account>, at: string, after?: string): Map<string, Map<string, bigint>> {
  const out = new Map<string, Map<string, bigint>>(); // currency → account → amount
  for (const p of readParts(db, entityId, at, after)) {
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

/** Revenue and expenses of the entries dated after `from` up to `to` (default: from the start, to now). */
export function getProfitAndLoss(ctx: Context, entityId: string, q: { from?: string; to?: string }) {
  const to = q.to ? new Date(q.to).toISOString() : nowIso(ctx);
  const from = q.from ? new Date(q.from).toISOString() : undefined;
  if (from && from > to) throw new BadRequestError('from must not be after to');
  return readTx(ctx, entityId, (db) => {
    const accounts = accountsOf(db, entityId);
    const currencies = [...netByAccount(db, entityId, accounts, to, from)].sort(([x], [y]) => x.localeCompare(y));
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
  });
}

/**
 * Assets, liabilities and equity as of a date. Earnings not yet closed into retained earnings
 * (revenue − expenses to date) are shown as their own equity line, so assets = liabilities +
 * equity holds for every currency (asserted).
 */
export function getBalanceSheet(ctx: Context, entityId: string, q: { asOf?: string }) {
  const asOf = q.asOf ? new Date(q.asOf).toISOString() : nowIso(ctx);
  return readTx(ctx, entityId, (db) => {
    const accounts = accountsOf(db, entityId);
    const currencies = [...netByAccount(db, entityId, accounts, asOf)].sort(([x], [y]) => x.localeCompare(y));
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
  });
}
