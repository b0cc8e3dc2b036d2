import type { EventTypeDef } from './define.js';
import { invoiceCreated } from './invoice-created.js';
import { invoicePaid } from './invoice-paid.js';
import { paymentReceived } from './payment-received.js';
import { billReceived } from './bill-received.js';
import { billPaid } from './bill-paid.js';
import { expenseRecorded } from './expense-recorded.js';
import { refundIssued } from './refund-issued.js';
import { creditNoteIssued } from './credit-note-issued.js';
import { ownerContribution } from './owner-contribution.js';
import { transferShielded } from './transfer-shielded.js';
import { chainReset } from './chain-reset.js';
import { relayerGasPaid } from './relayer-gas.js';
import { privatePaymentReceived, privatePaymentSent } from './private-payment.js';
import { purchaseOrderIssued, quoteIssued } from './no-posting.js';

/** The catalogue of business event types, one file per type. */
export const EVENT_TYPES: readonly EventTypeDef[] = [
  invoiceCreated,
  invoicePaid,
  paymentReceived,
  billReceived,
  billPaid,
  expenseRecorded,
  refundIssued,
  creditNoteIssued,
  ownerContribution,
  transferShielded,
  chainReset,
  relayerGasPaid,
  privatePaymentSent,
  privatePaymentReceived,
  quoteIssued,
  purchaseOrderIssued,
];

const byType = new Map(EVENT_TYPES.map((d) => [d.type, d]));

export function findEventType(type: string): EventTypeDef | undefined {
  return byType.get(type);
}

export type { EventTypeDef, RuleLine } from './define.js';
