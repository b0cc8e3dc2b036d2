import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload } from './define.js';

export const billPaid = defineEventType({
  type: 'bill_paid',
  title: 'Bill paid',
  description: 'A supplier bill was paid.',
  schemaVersion: '1',
  flow: 'out',
  payload: moneyPayload({ billNumber: label(60), currency, amount, paymentAccount: accountCode }, ['amount']),
  example: { billNumber: 'B-77', currency: 'USD', amount: '1500.00' },
  rule: 'Debit Accounts payable (2000) and credit Bank account (1010, or paymentAccount) with the amount paid.',
  post: (p) => journal(p.currency).debit(ACC.payable, p.amount).credit(p.paymentAccount ?? ACC.bank, p.amount).lines(),
  describe: (p) => `Payment of bill ${p.billNumber}`,
});
