import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload } from './define.js';

export const invoicePaid = defineEventType({
  type: 'invoice_paid',
  title: 'Invoice paid',
  description: 'A customer paid (part of) an invoice you recorded earlier with "Invoice created": settles the receivable, no new revenue. For a sale that was never invoiced, use "Payment received".',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload({ invoiceNumber: label(60), currency, amount, depositAccount: accountCode }, ['amount']),
  example: { invoiceNumber: 'INV-1001', currency: 'USD', amount: '1200.00' },
  rule: 'Debit Bank account (1010, or depositAccount) and credit Accounts receivable (1100) with the amount paid.',
  post: (p) => journal(p.currency).debit(p.depositAccount ?? ACC.bank, p.amount).credit(ACC.receivable, p.amount).lines(),
  describe: (p) => `Payment of invoice ${p.invoiceNumber}`,
});
