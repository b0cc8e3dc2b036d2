// What a private payment out pays, as the sender says it, checked against the chart before
// proving; how the books take it is payment-booking.ts. Unsaid, it waits in Uncategorised
// payments — never Accounts payable without a bill.
import type { Context } from '../context.js';
import { BadRequestError } from '../http/errors.js';
import { listAccounts } from '../ledger/index.js';
import type { PaymentPurpose } from './tables.js';

/** A purpose naming an expense account is checked against the entity's chart before proving. */
export function checkPaymentPurpose(ctx: Context, entityId: string, purpose: PaymentPurpose | undefined): PaymentPurpose | null {
  if (!purpose) return null;
  if (purpose.kind !== 'expense') return purpose;
  const account = listAccounts(ctx, entityId, false).find((a) => a.code === purpose.account);
  if (!account || account.type !== 'expense') throw new BadRequestError(`purpose.account: ${purpose.account} is not one of this business's expense accounts (Ledger → Accounts)`);
  return purpose;
}
