import { ACC } from '../shared/ledger/accounts.js';
import type { AccountType } from './tables.js';

export { ACC };

/**
 * Accounts whose balance cannot go below zero in a real business: cash in hand, what customers
 * owe, crypto held, and what we owe suppliers. (A bank account can be overdrawn; tax accounts can
 * flip to a refund.) A correction that drives one of them negative is refused unless forced.
 */
export const NEVER_NEGATIVE: ReadonlySet<string> = new Set([ACC.cash, ACC.receivable, ACC.cryptoWallet, ACC.shieldedFunds, ACC.payable]);

export interface ChartAccount {
  code: string;
  name: string;
  type: AccountType;
  description?: string;
}

/** A small-business default chart, seeded for every entity on first use of the ledger. */
export const DEFAULT_CHART: ChartAccount[] = [
  { code: ACC.cash, name: 'Cash on hand', type: 'asset' },
  { code: ACC.bank, name: 'Bank account', type: 'asset' },
  { code: ACC.receivable, name: 'Accounts receivable', type: 'asset', description: 'Invoiced, not yet paid by customers' },
  { code: ACC.ownBusinesses, name: 'Due from own businesses', type: 'asset', description: "Paid to (or received from) the owner's other businesses: settled between them, not an expense" },
  { code: ACC.vatReceivable, name: 'VAT / sales tax receivable', type: 'asset', description: 'Input tax reclaimable on purchases' },
  { code: ACC.cryptoWallet, name: 'Crypto wallet (public)', type: 'asset' },
  { code: ACC.shieldedFunds, name: 'Shielded funds', type: 'asset', description: 'Funds held in the private (shielded) pool' },
  { code: ACC.relayerAccount, name: 'Relayer account (gas)', type: 'asset', description: "The business's relayer account: it pays the gas of its private transfers" },
  { code: ACC.uncategorisedPayments, name: 'Uncategorised payments', type: 'asset', description: 'Paid out privately, not yet said what for: each one waits to be booked as a bill, an expense or a drawing' },
  { code: ACC.payable, name: 'Accounts payable', type: 'liability', description: 'Supplier bills not yet paid' },
  { code: ACC.vatPayable, name: 'VAT / sales tax payable', type: 'liability', description: 'Output tax collected on sales' },
  { code: '2300', name: 'Income tax payable', type: 'liability' },
  { code: ACC.uncategorisedReceipts, name: 'Uncategorised receipts', type: 'liability', description: 'Received privately, not yet said what for: each one waits to be booked as an invoice paid, income or a contribution' },
  { code: '2400', name: 'Loans payable', type: 'liability' },
  { code: ACC.ownerEquity, name: "Owner's equity", type: 'equity' },
  { code: ACC.retainedEarnings, name: 'Retained earnings', type: 'equity' },
  { code: ACC.ownerDrawings, name: 'Owner drawings', type: 'equity', description: 'Taken out of the business by its owner' },
  { code: ACC.sales, name: 'Sales revenue', type: 'revenue' },
  { code: '4100', name: 'Service revenue', type: 'revenue' },
  { code: ACC.otherIncome, name: 'Other income', type: 'revenue' },
  { code: ACC.salesReturns, name: 'Sales returns and allowances', type: 'revenue', description: 'Contra-revenue: refunds and credit notes' },
  { code: '5000', name: 'Cost of goods sold', type: 'expense' },
  { code: ACC.generalExpenses, name: 'General expenses', type: 'expense' },
  { code: '6100', name: 'Rent', type: 'expense' },
  { code: '6200', name: 'Utilities', type: 'expense' },
  { code: '6300', name: 'Salaries and wages', type: 'expense' },
  { code: '6400', name: 'Office supplies', type: 'expense' },
  { code: '6500', name: 'Software and subscriptions', type: 'expense' },
  { code: '6600', name: 'Travel', type: 'expense' },
  { code: ACC.networkFees, name: 'Bank and network fees', type: 'expense' },
  { code: '6800', name: 'Professional fees', type: 'expense' },
  { code: '6900', name: 'Marketing', type: 'expense' },
];
