import { z } from 'zod';
import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, moneyPayload, optionalAmount } from './define.js';

const chain = z.string().min(1).max(40).optional();
const reference = z.string().min(1).max(200).optional().meta({ description: 'What identifies the movement: the privacy module uses its wallet activity (`wallet-activity:<id>`), whose transaction is in the wallet history of the device that made it' });

/** Shielded funds paid out: a private send, or an unshield to someone else's public address. */
export const privatePaymentSent = defineEventType({
  type: 'private_payment_sent',
  title: 'Private payment sent',
  description:
    'Shielded funds paid to someone else: a private send to their shielded address, or an unshield to a public address that is not ours. Posted by the privacy module with what the payment was for, as the sender said: a bill (settles Accounts payable), an expense, one of our own businesses or an owner drawing — or, until someone says, Uncategorised payments (1900).',
  schemaVersion: '1',
  flow: 'out',
  recordable: false,
  payload: moneyPayload(
    {
      currency: currency.meta({ description: 'The asset, e.g. `ETH/18`', example: 'ETH/18' }),
      amount,
      fee: optionalAmount.meta({ description: 'Relayer fee paid from the shielded funds on top of the amount' }),
      counterparty: z.string().min(1).max(200).optional().meta({ description: 'Who was paid, when it is a public address (an unshield). The privacy module never names a shielded address here: the ledger syncs, and the recipient of a private send stays in the wallet of the device that sent it.' }),
      method: z.enum(['private_send', 'unshield']).meta({ description: 'A send inside the pool, or a withdrawal to a public address' }),
      billNumber: z.string().min(1).max(60).optional().meta({ description: 'The supplier bill this pays: the payment settles Accounts payable (2000)' }),
      counterAccount: accountCode.meta({ description: 'What the payment was for: an expense account, Due from own businesses (1150), Owner drawings (3200), Accounts payable (2000, with billNumber). Default: Accounts payable with a billNumber, else Uncategorised payments (1900)' }),
      chain,
      reference,
    },
    ['amount', 'fee'],
  ),
  example: { currency: 'ETH/18', amount: '0.25', fee: '0.001', method: 'private_send', counterAccount: '6500', chain: 'base-sepolia' },
  rule: 'Debit what it paid (counterAccount; Accounts payable 2000 for a bill; else Uncategorised payments 1900) with the amount and Bank and network fees (6700) with the fee; credit Shielded funds (1310) with amount + fee.',
  post: (p) => journal(p.currency).debit(p.counterAccount ?? (p.billNumber ? ACC.payable : ACC.uncategorisedPayments), p.amount).debit(ACC.networkFees, p.fee).credit(ACC.shieldedFunds, p.amount, p.fee).lines(),
  describe: (p) => `${p.method === 'unshield' ? 'Private payment out (unshielded to another address)' : 'Private payment sent'}${p.billNumber ? ` for bill ${p.billNumber}` : ''}`,
});

/** Shielded funds received from someone else. */
export const privatePaymentReceived = defineEventType({
  type: 'private_payment_received',
  title: 'Private payment received',
  description:
    'Shielded funds received from someone else into our shielded address. Posted by the privacy module when the note is found on chain, to Uncategorised receipts (2900) until someone says what it was: an invoice paid (settles Accounts receivable), income, an owner contribution or one of our own businesses.',
  schemaVersion: '1',
  flow: 'in',
  recordable: false,
  payload: moneyPayload(
    {
      currency: currency.meta({ description: 'The asset, e.g. `ETH/18`', example: 'ETH/18' }),
      amount,
      invoiceNumber: z.string().min(1).max(60).optional().meta({ description: 'The invoice this pays: the receipt settles Accounts receivable (1100)' }),
      counterAccount: accountCode.meta({ description: "What the receipt was: an income account, Owner's equity (3000), Due from own businesses (1150), Accounts receivable (1100, with invoiceNumber). Default: Accounts receivable with an invoiceNumber, else Uncategorised receipts (2900)" }),
      chain,
      reference,
    },
    ['amount'],
  ),
  example: { currency: 'ETH/18', amount: '0.25', invoiceNumber: 'INV-1001', chain: 'base-sepolia' },
  rule: 'Debit Shielded funds (1310) and credit what it was (counterAccount; Accounts receivable 1100 for an invoice; else Uncategorised receipts 2900) with the amount.',
  post: (p) => journal(p.currency).debit(ACC.shieldedFunds, p.amount).credit(p.counterAccount ?? (p.invoiceNumber ? ACC.receivable : ACC.uncategorisedReceipts), p.amount).lines(),
  describe: (p) => `Private payment received${p.invoiceNumber ? ` for invoice ${p.invoiceNumber}` : ''}`,
});
