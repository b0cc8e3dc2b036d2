import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const billReceived = defineEventType({
  type: 'bill_received',
  title: 'Bill received',
  description: 'A supplier bill was received: the expense is incurred and owed to the supplier.',
  schemaVersion: '1',
  flow: 'out',
  payload: moneyPayload(
    { billNumber: label(60), supplierName: label().optional(), currency, netAmount: amount, taxAmount: optionalAmount, expenseAccount: accountCode },
    ['netAmount', 'taxAmount'],
  ),
  example: { billNumber: 'B-77', supplierName: 'Office Landlord LLC', currency: 'USD', netAmount: '1500.00', taxAmount: '0', expenseAccount: '6100' },
  rule: 'Debit the expense account (6000 General expenses, or expenseAccount) with the net amount and VAT / sales tax receivable (1200) with the tax; credit Accounts payable (2000) with the gross amount.',
  post: (p) =>
    journal(p.currency)
      .debit(p.expenseAccount ?? ACC.generalExpenses, p.netAmount)
      .debit(ACC.vatReceivable, p.taxAmount)
      .credit(ACC.payable, p.netAmount, p.taxAmount)
      .lines(),
  describe: (p) => `Bill ${p.billNumber}${p.supplierName ? ` from ${p.supplierName}` : ''}`,
});
