import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const paymentReceived = defineEventType({
  type: 'payment_received',
  title: 'Payment received',
  description: 'Money received for a sale that was not invoiced first (a sales receipt): books the revenue now. If you recorded an invoice for it, use "Invoice paid" instead, or the revenue is counted twice.',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload(
    { reference: label(60).optional(), payerName: label().optional(), currency, netAmount: amount, taxAmount: optionalAmount, depositAccount: accountCode, revenueAccount: accountCode },
    ['netAmount', 'taxAmount'],
  ),
  example: { reference: 'POS-2231', payerName: 'Walk-in customer', currency: 'USD', netAmount: '50.00', taxAmount: '10.00' },
  rule: 'Debit Bank account (1010, or depositAccount) with the gross amount; credit Sales revenue (4000, or revenueAccount) with the net amount and VAT / sales tax payable (2200) with the tax.',
  post: (p) =>
    journal(p.currency)
      .debit(p.depositAccount ?? ACC.bank, p.netAmount, p.taxAmount)
      .credit(p.revenueAccount ?? ACC.sales, p.netAmount)
      .credit(ACC.vatPayable, p.taxAmount)
      .lines(),
  describe: (p) => `Payment received${p.payerName ? ` from ${p.payerName}` : ''}${p.reference ? ` (${p.reference})` : ''}`,
});
