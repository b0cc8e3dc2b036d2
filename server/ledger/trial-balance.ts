import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { invariant } from './assert.js';
import { formatMinor } from './money.js';
import { ensureLedger } from './setup.js';
import { ledgerAccounts } from './tables.js';
import { readParts, readPartsInWorker, type Part } from './balances.js';

interface Sums {
  debit: bigint;
  credit: bigint;
}

/** The trial balance of `parts`, with the accounts' codes, names and types; each currency must net to zero (asserted). */
function trialBalanceOf(at: string, parts: Part[], accounts: Map<string, typeof ledgerAccounts.$inferSelect>) {
  const perAccount = new Map<string, Sums>();
  const perCurrency = new Map<string, Sums>();
  for (const p of parts) {
    const amount = BigInt(p.total);
    for (const [map, key] of [[perAccount, `${p.accountId}|${p.currency}`], [perCurrency, p.currency]] as const) {
      const sums = map.get(key) ?? map.set(key, { debit: 0n, credit: 0n }).get(key)!;
      sums[p.side] += amount;
    }
  }
  for (const [currency, s] of perCurrency) invariant(s.debit === s.credit, `trial balance in ${currency} sums to zero`);
  const rows = [...perAccount].map(([key, s]) => {
    const [accountId, currency] = key.split('|');
    const a = accounts.get(accountId)!;
    return { accountId, code: a.code, name: a.name, type: a.type, currency, ...money(s, currency) };
  });
  rows.sort((x, y) => x.code.localeCompare(y.code) || x.currency.localeCompare(y.currency));
  const totals = [...perCurrency].map(([currency, s]) => ({ currency, ...money(s, currency) })).sort((x, y) => x.currency.localeCompare(y.currency));
  return { asOf: at, rows, totals };
}

const accountsOf = (db: Queryable, entityId: string) => new Map(db.select().from(ledgerAccounts).where(eq(ledgerAccounts.entityId, entityId)).all().map((a) => [a.id, a]));

/**
 * Debit and credit totals per account and currency from every entry dated up to `asOf`, read
 * from the maintained totals (balances.ts), exact whatever the amounts. The totals of each
 * currency must net to zero (asserted).
 */
export function getTrialBalance(ctx: Context, entityId: string, asOf?: string) {
  const at = asOf ? new Date(asOf).toISOString() : nowIso(ctx);
  return write(ctx, (db) => {
    ensureLedger(ctx, db, entityId);
    return trialBalanceOf(at, readParts(db, entityId, at), accountsOf(db, entityId));
  });
}

/**
 * The same trial balance with the totals read by a read worker (the API's route): a long history
 * never holds up other requests. The accounts are read after the totals, so every account a line
 * names is there (an account with lines is never deleted).
 */
export async function readTrialBalance(ctx: Context, entityId: string, asOf?: string) {
  const at = asOf ? new Date(asOf).toISOString() : nowIso(ctx);
  write(ctx, (tx) => ensureLedger(ctx, tx, entityId));
  const parts = await readPartsInWorker(ctx, entityId, at);
  return trialBalanceOf(at, parts, accountsOf(ctx.db, entityId));
}

function money(s: Sums, currency: string) {
  return { debit: formatMinor(s.debit, currency), credit: formatMinor(s.credit, currency), balance: formatMinor(s.debit - s.credit, currency) };
}
