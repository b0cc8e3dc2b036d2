import { ACC } from '../chart.js';
import { amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const creditNoteIssued = defineEventType({
  type: 'credit_note_issued',
  title: 'Credit note issued',
  description: 'A credit note reduces what a customer owes on an invoice.',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload(
    { creditNoteNumber: label(60), invoiceNumber: label(60).optional(), customerName: label().optional(), currency, netAmount: amount, taxAmount: optionalAmount },
    ['netAmount', 'taxAmount'],
  ),
  example: { creditNoteNumber: 'CN-5', invoiceNumber: 'INV-1001', currency: 'USD', netAmount: '100.00', taxAmount: '20.00' },
  rule: 'Debit Sales returns and allowances (4900) with the net amount and VAT / sales tax payable (2200) with the tax; credit Accounts receivable (1100) with the gross amount.',
  post: (p) =>
    journal(p.currency)
      .debit(ACC.salesReturns, p.netAmount)
      .debit(ACC.vatPayable, p.taxAmount)
      .credit(ACC.receivable, p.netAmount, p.taxAmount)
      .lines(),
  describe: (p) => `Credit note ${p.creditNoteNumber}${p.invoiceNumber ? ` on invoice ${p.invoiceNumber}` : ''}`,
});
