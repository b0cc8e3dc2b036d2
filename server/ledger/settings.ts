import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError } from '../http/errors.js';
import { thresholdToMinor } from './evaluate.js';
import { formatMinor, MoneyError } from './money.js';
import { inLedgerTx, readSettings } from './setup.js';
import { ledgerSettings } from './tables.js';

function present(s: ReturnType<typeof readSettings>) {
  return {
    approvalThresholds: Object.fromEntries(Object.entries(s.approvalThresholds).map(([c, minor]) => [c, formatMinor(BigInt(minor), c)])),
    requireSeparateApprover: s.requireSeparateApprover,
  };
}

export function getLedgerSettings(ctx: Context, entityId: string) {
  return inLedgerTx(ctx, entityId, (db) => present(readSettings(db, entityId)));
}

/** Replaces the approval thresholds (currency → amount in major units); sets the four-eyes rule when given. */
export function updateLedgerSettings(ctx: Context, entityId: string, input: { approvalThresholds: Record<string, string>; requireSeparateApprover?: boolean }) {
  const thresholds: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(input.approvalThresholds)) {
    try {
      thresholds[currency] = thresholdToMinor(currency, amount);
    } catch (err) {
      if (err instanceof MoneyError) throw new BadRequestError(`approvalThresholds.${currency}: ${err.message}`);
      throw err;
    }
  }
  return inLedgerTx(ctx, entityId, (db) => {
    const fourEyes = input.requireSeparateApprover === undefined ? {} : { requireSeparateApprover: input.requireSeparateApprover };
    db.update(ledgerSettings).set({ approvalThresholds: thresholds, ...fourEyes, updatedAt: nowIso(ctx) }).where(eq(ledgerSettings.entityId, entityId)).run();
    return present(readSettings(db, entityId));
  });
}
