import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError } from '../http/errors.js';
import { thresholdToMinor } from './evaluate.js';
import { formatMinor, MoneyError } from './money.js';
import { inLedgerTx, readThresholds } from './setup.js';
import { ledgerSettings } from './tables.js';

function present(thresholds: Record<string, string>) {
  return { approvalThresholds: Object.fromEntries(Object.entries(thresholds).map(([c, minor]) => [c, formatMinor(BigInt(minor), c)])) };
}

export function getLedgerSettings(ctx: Context, entityId: string) {
  return inLedgerTx(ctx, entityId, (db) => present(readThresholds(db, entityId)));
}

/** Replaces the approval thresholds (currency → amount in major units). */
export function updateLedgerSettings(ctx: Context, entityId: string, input: { approvalThresholds: Record<string, string> }) {
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
    db.update(ledgerSettings).set({ approvalThresholds: thresholds, updatedAt: nowIso(ctx) }).where(eq(ledgerSettings.entityId, entityId)).run();
    return present(thresholds);
  });
}
