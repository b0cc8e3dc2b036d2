import type { Queryable } from '../db/tx.js';
import { findEventType, type EventTypeDef } from './rules/index.js';
import type { ResolvedLine } from './journal.js';
import { MoneyError, mustCurrency, toMinor } from './money.js';
import { ledgerStatements } from './hot-statements.js';

/** What the posting engine would do with an event, before anything is written. */
export type Evaluation =
  | { outcome: 'failed'; error: string }
  | { outcome: 'unposted' }
  | { outcome: 'post'; lines: ResolvedLine[]; description: string };

/**
 * Runs an event through its type's schema and posting rule and resolves the accounts.
 * Pure apart from reading the chart: the same payload always gives the same lines.
 */
export function evaluateEvent(db: Queryable, entityId: string, type: string, payload: unknown, schemaVersion: string): Evaluation {
  const def = findEventType(type);
  if (!def) return { outcome: 'failed', error: `Unknown event type "${type}"` };
  if (schemaVersion !== def.schemaVersion) {
    return { outcome: 'failed', error: `schemaVersion "${schemaVersion}" is not supported for ${type} (supported: "${def.schemaVersion}")` };
  }
  const parsed = def.payload.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
    return { outcome: 'failed', error: `Invalid ${type} payload: ${issues.join('; ')}` };
  }
  if (!def.post) return { outcome: 'unposted' };
  return resolveRule(db, entityId, def, parsed.data);
}

function resolveRule(db: Queryable, entityId: string, def: EventTypeDef, payload: unknown): Evaluation {
  let ruleLines;
  try {
    ruleLines = def.post!(payload);
  } catch (err) {
    if (err instanceof MoneyError) return { outcome: 'failed', error: err.message };
    throw err;
  }
  if (ruleLines.length === 0) return { outcome: 'failed', error: 'The posting rule produced no lines (all amounts are zero)' };
  const codes = [...new Set(ruleLines.map((l) => l.account))];
  const byCode = ledgerStatements(db).accountsByCodes(entityId, codes);
  for (const code of codes) {
    const account = byCode.get(code);
    if (!account) return { outcome: 'failed', error: `Account ${code} is not in the chart of accounts` };
    if (account.archivedAt) return { outcome: 'failed', error: `Account ${code} (${account.name}) is archived` };
  }
  return {
    outcome: 'post',
    description: def.describe(payload),
    lines: ruleLines.map((l) => ({ accountId: byCode.get(l.account)!.id, side: l.side, amount: l.amount, currency: l.currency, memo: l.memo ?? null })),
  };
}

/** True when, in any currency, the entry moves at least the entity's approval threshold. */
export function needsApproval(lines: ResolvedLine[], thresholds: Record<string, string>): boolean {
  const debits = new Map<string, bigint>();
  for (const l of lines) if (l.side === 'debit') debits.set(l.currency, (debits.get(l.currency) ?? 0n) + l.amount);
  return [...debits].some(([currency, total]) => thresholds[currency] !== undefined && total >= BigInt(thresholds[currency]));
}

/** Threshold as stored (minor units) from a decimal string in major units. */
export function thresholdToMinor(currency: string, amount: string): string {
  return toMinor(amount, mustCurrency(currency)).toString();
}
