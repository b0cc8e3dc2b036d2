// checkEvent: what posting an event would do, without writing anything — the form's validation
// (a typo must never become a permanent failed event) and a preview of the journal lines.
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError } from '../http/errors.js';
import { evaluateEvent, needsApproval } from './evaluate.js';
import { formatMinor } from './money.js';
import { findEventType } from './rules/index.js';
import { payloadIssues } from './payload-issues.js';
import { inLedgerTx, readSettings } from './setup.js';
import { ledgerAccounts } from './tables.js';

export interface EventCheck {
  /** What posting would do: `posted`, `pending_approval`, `unposted`, or `failed` (then see errors). */
  outcome: 'posted' | 'pending_approval' | 'unposted' | 'failed';
  /** Per payload field (path from the payload's root; empty for the event as a whole). */
  errors: { path: (string | number)[]; message: string }[];
  lines: { code: string; name: string; side: 'debit' | 'credit'; amount: string; currency: string }[];
}

export function checkEvent(ctx: Context, entityId: string, input: { type: string; payload: Record<string, unknown>; schemaVersion?: string }): EventCheck {
  const def = findEventType(input.type);
  if (!def) throw new BadRequestError(`Unknown event type "${input.type}"`, { knownTypes: '/api/ledger/event-types' });
  const parsed = def.payload.safeParse(input.payload);
  if (!parsed.success) return { outcome: 'failed', errors: payloadIssues(parsed.error, input.payload), lines: [] };
  return inLedgerTx(ctx, entityId, (db) => preview(db, entityId, input.type, input.payload, input.schemaVersion ?? def.schemaVersion));
}

function preview(db: Queryable, entityId: string, type: string, payload: Record<string, unknown>, schemaVersion: string): EventCheck {
  const evaluation = evaluateEvent(db, entityId, type, payload, schemaVersion);
  if (evaluation.outcome === 'failed') return { outcome: 'failed', errors: [{ path: [], message: evaluation.error }], lines: [] };
  if (evaluation.outcome === 'unposted') return { outcome: 'unposted', errors: [], lines: [] };
  const accounts = new Map(db.select().from(ledgerAccounts).where(eq(ledgerAccounts.entityId, entityId)).all().map((a) => [a.id, a]));
  return {
    outcome: needsApproval(evaluation.lines, readSettings(db, entityId).approvalThresholds) ? 'pending_approval' : 'posted',
    errors: [],
    lines: evaluation.lines.map((l) => ({ code: accounts.get(l.accountId)!.code, name: accounts.get(l.accountId)!.name, side: l.side, amount: formatMinor(l.amount, l.currency), currency: l.currency })),
  };
}
