import { z } from 'zod';
import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload, optionalAmount } from './define.js';

export const invoiceCreated = defineEventType({
  type: 'invoice_created',
  title: 'Invoice created',
  description: 'A sales invoice was issued to a customer.',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload(
    {
      invoiceNumber: label(60),
      customerName: label().optional(),
      currency,
      netAmount: amount,
      taxAmount: optionalAmount,
      dueDate: z.iso.date().optional(),
      revenueAccount: accountCode,
    },
    ['netAmount', 'taxAmount'],
  ),
  example: { invoiceNumber: 'INV-1001', customerName: 'Acme Ltd', currency: 'USD', netAmount: '1000.00', taxAmount: '200.00', dueDate: '2026-12-31' },
  rule: 'Debit Accounts receivable (1100) with the gross amount (net + tax); credit Sales revenue (4000, or revenueAccount) with the net amount and VAT / sales tax payable (2200) with the tax.',
  post: (p) =>
    journal(p.currency)
      .debit(ACC.receivable, p.netAmount, p.taxAmount)
      .credit(p.revenueAccount ?? ACC.sales, p.netAmount)
      .credit(ACC.vatPayable, p.taxAmount)
      .lines(),
  describe: (p) => `Invoice ${p.invoiceNumber}${p.customerName ? ` to ${p.customerName}` : ''}`,
});
