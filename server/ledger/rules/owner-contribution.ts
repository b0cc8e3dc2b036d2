import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, label, moneyPayload } from './define.js';

export const ownerContribution = defineEventType({
  type: 'owner_contribution',
  title: 'Owner contribution',
  description: 'The owner put money into the business.',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload({ ownerName: label().optional(), currency, amount, depositAccount: accountCode }, ['amount']),
  example: { ownerName: 'Ada Lovelace', currency: 'USD', amount: '10000.00' },
  rule: "Debit Bank account (1010, or depositAccount) and credit Owner's equity (3000) with the amount.",
  post: (p) => journal(p.currency).debit(p.depositAccount ?? ACC.bank, p.amount).credit(ACC.ownerEquity, p.amount).lines(),
  describe: (p) => `Owner contribution${p.ownerName ? ` by ${p.ownerName}` : ''}`,
});
