// What a private payment out pays, as the sender says it, and how the books take it: a bill
// settles Accounts payable, an expense goes to its account, a payment to one of the owner's other
// businesses is owed back (Due from own businesses), a drawing reduces equity. Unsaid, it waits in
// Uncategorised payments — never Accounts payable without a bill.
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

/** The private_payment_sent payload fields a purpose books to. */
export function bookingOf(purpose: PaymentPurpose | null): { counterAccount?: string; billNumber?: string } {
  switch (purpose?.kind) {
    case 'bill':
      return { billNumber: purpose.billNumber };
    case 'expense':
      return { counterAccount: purpose.account };
    case 'own_business':
      return { counterAccount: '1150' };
    case 'owner_drawing':
      return { counterAccount: '3200' };
    default:
      return {};
  }
}
