import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const refundIssued = defineEventType({
  type: 'refund_issued',
  title: 'Refund issued',
  description: 'Money paid back to a customer.',
  schemaVersion: '1',
  flow: 'out',
  payload: moneyPayload(
    { reference: label(60), customerName: label().optional(), currency, netAmount: amount, taxAmount: optionalAmount, paymentAccount: accountCode },
    ['netAmount', 'taxAmount'],
  ),
  example: { reference: 'RF-12', customerName: 'Acme Ltd', currency: 'USD', netAmount: '100.00', taxAmount: '20.00' },
  rule: 'Debit Sales returns and allowances (4900) with the net amount and VAT / sales tax payable (2200) with the tax; credit Bank account (1010, or paymentAccount) with the gross amount.',
  post: (p) =>
    journal(p.currency)
      .debit(ACC.salesReturns, p.netAmount)
      .debit(ACC.vatPayable, p.taxAmount)
      .credit(p.paymentAccount ?? ACC.bank, p.netAmount, p.taxAmount)
      .lines(),
  describe: (p) => `Refund ${p.reference}${p.customerName ? ` to ${p.customerName}` : ''}`,
});
