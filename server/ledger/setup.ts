import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { ACC, DEFAULT_CHART } from './chart.js';
import { accountIdOf } from './ids.js';
import { ledgerAccounts, ledgerSettings } from './tables.js';
import { ledgerStatements } from './hot-statements.js';
import { eq } from 'drizzle-orm';

/** Accounts the built-in rules post to: they can be renamed but not archived or deleted. */
const RULE_ACCOUNTS = new Set<string>(Object.values(ACC));

/** Seeds the entity's ledger (settings and the default chart) the first time it is used. */
export function ensureLedger(ctx: Context, db: Queryable, entityId: string): void {
  const seeded = ledgerStatements(db).settings(entityId);
  if (seeded) return addNewDefaultAccounts(ctx, db, entityId);
  const now = nowIso(ctx);
  db.insert(ledgerSettings).values({ entityId, approvalThresholds: {}, requireSeparateApprover: false, createdAt: now, updatedAt: now }).run();
  db.insert(ledgerAccounts)
    .values(DEFAULT_CHART.map((a) => ({ id: accountIdOf(entityId, a.code), entityId, code: a.code, name: a.name, type: a.type, description: a.description ?? null, system: RULE_ACCOUNTS.has(a.code), archivedAt: null, createdAt: now, updatedAt: now })))
    .run();
}

/** Entities whose chart has every default account, per context: checked once per process. */
const chartComplete = new WeakMap<Context, Set<string>>();

/**
 * A chart seeded by an older version lacks the default accounts added since (the clearing
 * accounts private payments book to): they are added, with the same deterministic ids on every
 * device, the first time the ledger is used after an update.
 */
function addNewDefaultAccounts(ctx: Context, db: Queryable, entityId: string): void {
  const done = chartComplete.get(ctx) ?? new Set<string>();
  chartComplete.set(ctx, done);
  if (done.has(entityId)) return;
  const have = new Set(db.select({ code: ledgerAccounts.code }).from(ledgerAccounts).where(eq(ledgerAccounts.entityId, entityId)).all().map((a) => a.code));
  const missing = DEFAULT_CHART.filter((a) => !have.has(a.code));
  if (missing.length > 0) {
    const now = nowIso(ctx);
    db.insert(ledgerAccounts)
      .values(missing.map((a) => ({ id: accountIdOf(entityId, a.code), entityId, code: a.code, name: a.name, type: a.type, description: a.description ?? null, system: RULE_ACCOUNTS.has(a.code), archivedAt: null, createdAt: now, updatedAt: now })))
      .onConflictDoNothing()
      .run();
    // Known complete only once this transaction's insert is seen committed, by a later check.
    return;
  }
  done.add(entityId);
}

/**
 * Runs `fn` in one synchronous transaction, with the entity's ledger seeded first. Ledger
 * writes commit with `synchronous=FULL`, so an acknowledged posting survives a power cut
 * (measured in test/bench/ledger.bench.ts). Inside a caller's transaction (another module
 * posting as part of its own change) it joins that transaction and the caller's setting applies.
 */
export function inLedgerTx<T>(ctx: Context, entityId: string, fn: (db: Queryable) => T): T {
  return durably(ctx, () =>
    write(ctx, (db) => {
      ensureLedger(ctx, db, entityId);
      return fn(db);
    }),
  );
}

/** Runs `fn` (which opens the outermost transaction) with `synchronous=FULL`: its commit is fsynced. */
export function durably<T>(ctx: Context, fn: () => T): T {
  if (ctx.sqlite.inTransaction) return fn(); // SQLite refuses to change it inside a transaction
  const previous = ctx.sqlite.pragma('synchronous', { simple: true }) as number;
  ctx.sqlite.pragma('synchronous = FULL');
  try {
    return fn();
  } finally {
    ctx.sqlite.pragma(`synchronous = ${previous}`);
  }
}

export function readSettings(db: Queryable, entityId: string): { approvalThresholds: Record<string, string>; requireSeparateApprover: boolean } {
  const row = ledgerStatements(db).settings(entityId);
  return { approvalThresholds: row?.approvalThresholds ?? {}, requireSeparateApprover: row?.requireSeparateApprover ?? false };
}
