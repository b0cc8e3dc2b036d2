// What a private payment out books to, from what the sender said it pays: the wallet posts it so
// when the payment confirms, and the wallet page's "Say what it was" rebooks an unsaid one the same
// way. Pure, so the server and the UI share it.
import { ACC } from '../ledger/accounts.js';

/** What the sender says a private payment pays (stored with the transfer). */
export type PaymentPurpose = { kind: 'bill'; billNumber: string } | { kind: 'expense'; account: string } | { kind: 'own_business' } | { kind: 'owner_drawing' };

/** The private_payment_sent payload fields a purpose books to (none: Uncategorised payments). */
export function bookingOf(purpose: PaymentPurpose | null): { counterAccount?: string; billNumber?: string } {
  switch (purpose?.kind) {
    case 'bill':
      return { billNumber: purpose.billNumber };
    case 'expense':
      return { counterAccount: purpose.account };
    case 'own_business':
      return { counterAccount: ACC.ownBusinesses };
    case 'owner_drawing':
      return { counterAccount: ACC.ownerDrawings };
    default:
      return {};
  }
}
