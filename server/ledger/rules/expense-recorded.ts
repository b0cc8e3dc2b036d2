import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const expenseRecorded = defineEventType({
  type: 'expense_recorded',
  title: 'Expense recorded',
  description: 'An expense paid at once (card, bank transfer or cash), with no bill to settle later.',
  schemaVersion: '1',
  flow: 'out',
  payload: moneyPayload(
    { description: label(), merchant: label().optional(), currency, netAmount: amount, taxAmount: optionalAmount, expenseAccount: accountCode, paymentAccount: accountCode },
    ['netAmount', 'taxAmount'],
  ),
  example: { description: 'Design software, yearly plan', merchant: 'Figma', currency: 'USD', netAmount: '144.00', taxAmount: '28.80', expenseAccount: '6500' },
  rule: 'Debit the expense account (6000 General expenses, or expenseAccount) with the net amount and VAT / sales tax receivable (1200) with the tax; credit Bank account (1010, or paymentAccount) with the gross amount.',
  post: (p) =>
    journal(p.currency)
      .debit(p.expenseAccount ?? ACC.generalExpenses, p.netAmount)
      .debit(ACC.vatReceivable, p.taxAmount)
      .credit(p.paymentAccount ?? ACC.bank, p.netAmount, p.taxAmount)
      .lines(),
  describe: (p) => `Expense: ${p.description}`,
});
