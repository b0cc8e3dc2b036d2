// What a private payment out books to, from what the sender said it pays: the wallet posts it so
// when the payment confirms, and the wallet page's "Say what it was" rebooks an unsaid one the same
// way. Free of the server's runtime, so the UI takes it as it is.
import { ACC } from '../ledger/index.js';
import type { PaymentPurpose } from './tables.js';

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
