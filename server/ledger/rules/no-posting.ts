import { amount, currency, defineEventType, label, moneyPayload } from './define.js';

/** Business events worth recording that have no accounting effect: they stay `unposted`. */
export const quoteIssued = defineEventType({
  type: 'quote_issued',
  title: 'Quote issued',
  description: 'A quote was sent to a prospect. Nothing is owed yet, so nothing is posted.',
  schemaVersion: '1',
  flow: 'none',
  payload: moneyPayload({ quoteNumber: label(60), customerName: label().optional(), currency, amount }, ['amount']),
  example: { quoteNumber: 'Q-314', customerName: 'Acme Ltd', currency: 'USD', amount: '2500.00' },
  rule: null,
  describe: (p) => `Quote ${p.quoteNumber}`,
});

export const purchaseOrderIssued = defineEventType({
  type: 'purchase_order_issued',
  title: 'Purchase order issued',
  description: 'A purchase order was sent to a supplier. Nothing is owed until the bill arrives, so nothing is posted.',
  schemaVersion: '1',
  flow: 'none',
  payload: moneyPayload({ orderNumber: label(60), supplierName: label().optional(), currency, amount }, ['amount']),
  example: { orderNumber: 'PO-88', supplierName: 'Paper Co', currency: 'USD', amount: '320.00' },
  rule: null,
  describe: (p) => `Purchase order ${p.orderNumber}`,
});
