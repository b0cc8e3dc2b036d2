import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { invariant } from './assert.js';
import { entryIdOf, lineIdOf } from './ids.js';
import { MAX_AMOUNT } from './money.js';
import { ledgerEntries, ledgerLines } from './tables.js';
import { ledgerStatements } from './hot-statements.js';

export interface ResolvedLine {
  accountId: string;
  side: 'debit' | 'credit';
  amount: bigint;
  currency: string;
  memo?: string | null;
}

/** Asserts the double-entry invariants of a set of lines: positive amounts, balanced per currency. */
export function assertBalanced(lines: ResolvedLine[]): void {
  invariant(lines.length >= 2, 'an entry has at least two lines');
  const net = new Map<string, bigint>();
  for (const l of lines) {
    invariant(typeof l.amount === 'bigint' && l.amount > 0n && l.amount <= MAX_AMOUNT, `line amount ${String(l.amount)} is a positive 128-bit integer`);
    invariant(l.accountId, 'every line names an account');
    net.set(l.currency, (net.get(l.currency) ?? 0n) + (l.side === 'debit' ? l.amount : -l.amount));
  }
  for (const [currency, n] of net) invariant(n === 0n, `debits equal credits in ${currency} (off by ${n})`);
}

/** Appends one balanced journal entry with its lines. Entries are never updated or deleted. */
export function writeEntry(
  ctx: Context,
  db: Queryable,
  e: { entityId: string; eventId: string; kind: 'posting' | 'reversal'; reversesEntryId?: string; description: string; effectiveAt: string; lines: ResolvedLine[] },
): string {
  assertBalanced(e.lines);
  const id = entryIdOf(e.eventId, e.kind);
  const st = ledgerStatements(db);
  st.insertEntry({ id, entityId: e.entityId, eventId: e.eventId, kind: e.kind, reversesEntryId: e.reversesEntryId ?? null, description: e.description, effectiveAt: e.effectiveAt, createdAt: nowIso(ctx) });
  e.lines.forEach((l, position) => {
    st.insertLine({ id: lineIdOf(id, position), entityId: e.entityId, entryId: id, position, accountId: l.accountId, currency: l.currency, side: l.side, amount: l.amount.toString(), memo: l.memo ?? null });
  });
  return id;
}

export function readLines(db: Queryable, entityId: string, entryId: string): ResolvedLine[] {
  return db
    .select()
    .from(ledgerLines)
    .where(and(eq(ledgerLines.entityId, entityId), eq(ledgerLines.entryId, entryId)))
    .orderBy(asc(ledgerLines.position))
    .all()
    .map((l) => ({ accountId: l.accountId, side: l.side, amount: BigInt(l.amount), currency: l.currency, memo: l.memo }));
}

/**
 * Appends the entry that undoes the event's posting entry (every line with its side swapped),
 * dated now. The unique index on `reverses_entry_id` makes a second reversal impossible.
 */
export function reversePosting(ctx: Context, db: Queryable, entityId: string, eventId: string, reason: string): string {
  const original = db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.entityId, entityId), eq(ledgerEntries.eventId, eventId), eq(ledgerEntries.kind, 'posting')))
    .get();
  invariant(original, `posted event ${eventId} has a posting entry`);
  const lines = readLines(db, entityId, original.id);
  const reversal = lines.map((l) => ({ ...l, side: l.side === 'debit' ? ('credit' as const) : ('debit' as const) }));
  assertBalanced([...lines, ...reversal]);
  invariant(
    lines.every((l, i) => reversal[i].accountId === l.accountId && reversal[i].amount === l.amount && reversal[i].side !== l.side),
    'a reversal nets its original to zero on every account',
  );
  return writeEntry(ctx, db, { entityId, eventId, kind: 'reversal', reversesEntryId: original.id, description: `Reversal of: ${original.description} (${reason})`, effectiveAt: nowIso(ctx), lines: reversal });
}
