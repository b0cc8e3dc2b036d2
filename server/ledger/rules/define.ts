import { z } from 'zod';
import { isCurrency, mustCurrency, toMinor, MoneyError } from '../money.js';

/** One line a posting rule produces, before accounts are resolved. */
export interface RuleLine {
  account: string; // account code in the entity's chart
  side: 'debit' | 'credit';
  amount: bigint; // minor units, > 0
  currency: string;
  memo?: string;
}

export type EventFlow = 'in' | 'out' | 'internal' | 'none';

/**
 * A business event type: its versioned payload schema, an example that posts as-is, and its
 * posting rule (in words and as code). Types without `post` are recorded but never posted.
 */
export interface EventTypeDef<S extends z.ZodType = z.ZodType> {
  type: string;
  title: string;
  description: string;
  schemaVersion: string;
  /**
   * Which side of the business it is about: `in` — customers and money coming in (invoices, credit
   * notes, receipts, owner contributions); `out` — suppliers and money going out (bills, payments,
   * expenses, refunds); `internal` — between our own accounts; `none` — nothing posted. The UI offers
   * reclassification to types of the same flow (a payment sent can become an expense or a bill
   * paid, never an invoice); the API allows any posting type.
   */
  flow: EventFlow;
  /**
   * False for types Bureau records itself (the wallet's transfers and payments, chain resets,
   * relayer gas): the "Record a business event" form does not offer them and POST
   * /api/ledger/events refuses them (400); they can still be reclassified.
   */
  recordable?: false;
  payload: S;
  example: z.input<S>;
  /** The posting rule in words; null for types that have no accounting effect. */
  rule: string | null;
  post?: (payload: z.output<S>) => RuleLine[];
  /** A short human description of the journal entry. */
  describe: (payload: z.output<S>) => string;
}

export function defineEventType<S extends z.ZodType>(def: EventTypeDef<S>): EventTypeDef {
  return def as unknown as EventTypeDef;
}

/** Builds lines in one currency: `.debit(code, ...amounts)` sums the amounts; zero lines are dropped. */
export function journal(currency: string) {
  const cur = mustCurrency(currency);
  const lines: RuleLine[] = [];
  const sum = (amounts: (string | undefined)[]) => amounts.reduce((acc, a) => acc + (a === undefined ? 0n : toMinor(a, cur)), 0n);
  const builder = {
    debit(account: string, ...amounts: (string | undefined)[]) {
      const amount = sum(amounts);
      if (amount > 0n) lines.push({ account, side: 'debit', amount, currency: cur.code });
      return builder;
    },
    credit(account: string, ...amounts: (string | undefined)[]) {
      const amount = sum(amounts);
      if (amount > 0n) lines.push({ account, side: 'credit', amount, currency: cur.code });
      return builder;
    },
    lines(): RuleLine[] {
      return lines;
    },
  };
  return builder;
}

// ── payload building blocks ──────────────────────────────────────────────────────────────

export const currency = z
  .string()
  .refine(isCurrency, 'must be an ISO-4217 currency code (e.g. "USD") or CODE/decimals for other assets (e.g. "ETH/18")')
  .meta({ description: 'ISO-4217 code, or CODE/decimals (Formance-style) for assets outside ISO-4217', example: 'USD' });

const decimal = z.string().regex(/^\d{1,40}(\.\d{1,40})?$/, 'must be a decimal string such as "125.50"');
export const amount = decimal.refine((v) => /[1-9]/.test(v), 'must be greater than zero').meta({ description: 'Decimal string in major units, greater than zero', example: '125.50' });
export const optionalAmount = decimal.optional().meta({ description: 'Decimal string in major units (zero allowed)', example: '25.10' });
export const accountCode = z.string().trim().min(1).max(20).optional().meta({ description: "Overrides the default account (a code in the entity's chart)" });
export const label = (max = 200) => z.string().trim().min(1).max(max);

/** An object payload whose amount fields must fit the currency's number of decimals. */
export function moneyPayload<T extends z.ZodRawShape & { currency: typeof currency }>(shape: T, amountKeys: (keyof T & string)[]) {
  return z.object(shape).superRefine((p, c) => {
    const code = (p as { currency?: string }).currency;
    if (!code || !isCurrency(code)) return;
    for (const key of amountKeys) {
      const v = (p as Record<string, unknown>)[key];
      if (typeof v !== 'string') continue;
      try {
        toMinor(v, mustCurrency(code));
      } catch (err) {
        if (err instanceof MoneyError) c.addIssue({ code: 'custom', path: [key], message: err.message });
        else throw err;
      }
    }
  });
}
