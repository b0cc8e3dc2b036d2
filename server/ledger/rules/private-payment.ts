import { z } from 'zod';
import { ACC } from '../chart.js';
import { accountCode, amount, currency, defineEventType, journal, moneyPayload, optionalAmount } from './define.js';

const chain = z.string().min(1).max(40).optional();
const reference = z.string().min(1).max(200).optional().meta({ description: 'What identifies the movement: the privacy module uses its wallet activity (`wallet-activity:<id>`), whose transaction is in the wallet history of the device that made it' });

/** Shielded funds paid out: a private send, or an unshield to someone else's public address. */
export const privatePaymentSent = defineEventType({
  type: 'private_payment_sent',
  title: 'Private payment sent',
  description: 'Shielded funds paid to someone else: a private send to their shielded address, or an unshield to a public address that is not ours. Posted by the privacy module.',
  schemaVersion: '1',
  flow: 'out',
  payload: moneyPayload(
    {
      currency: currency.meta({ description: 'The asset, e.g. `ETH/18`', example: 'ETH/18' }),
      amount,
      fee: optionalAmount.meta({ description: 'Relayer fee paid from the shielded funds on top of the amount' }),
      counterparty: z.string().min(1).max(200).optional().meta({ description: 'Who was paid, when it is a public address (an unshield). The privacy module never names a shielded address here: the ledger syncs, and the recipient of a private send stays in the wallet of the device that sent it.' }),
      method: z.enum(['private_send', 'unshield']).meta({ description: 'A send inside the pool, or a withdrawal to a public address' }),
      counterAccount: accountCode.meta({ description: 'What the payment settles: default Accounts payable (2000, a supplier paid); any account of the chart' }),
      chain,
      reference,
    },
    ['amount', 'fee'],
  ),
  example: { currency: 'ETH/18', amount: '0.25', fee: '0.001', method: 'private_send', chain: 'base-sepolia' },
  rule: 'Debit Accounts payable (2000, or counterAccount) with the amount and Bank and network fees (6700) with the fee; credit Shielded funds (1310) with amount + fee.',
  post: (p) => journal(p.currency).debit(p.counterAccount ?? ACC.payable, p.amount).debit(ACC.networkFees, p.fee).credit(ACC.shieldedFunds, p.amount, p.fee).lines(),
  describe: (p) => (p.method === 'unshield' ? 'Private payment out (unshielded to another address)' : 'Private payment sent'),
});

/** Shielded funds received from someone else. */
export const privatePaymentReceived = defineEventType({
  type: 'private_payment_received',
  title: 'Private payment received',
  description: 'Shielded funds received from someone else into our shielded address. Posted by the privacy module when the note is found on chain.',
  schemaVersion: '1',
  flow: 'in',
  payload: moneyPayload(
    {
      currency: currency.meta({ description: 'The asset, e.g. `ETH/18`', example: 'ETH/18' }),
      amount,
      counterAccount: accountCode.meta({ description: 'What the payment settles: default Accounts receivable (1100, a customer paid); any account of the chart' }),
      chain,
      reference,
    },
    ['amount'],
  ),
  example: { currency: 'ETH/18', amount: '0.25', chain: 'base-sepolia' },
  rule: 'Debit Shielded funds (1310) and credit Accounts receivable (1100, or counterAccount) with the amount.',
  post: (p) => journal(p.currency).debit(ACC.shieldedFunds, p.amount).credit(p.counterAccount ?? ACC.receivable, p.amount).lines(),
  describe: () => 'Private payment received',
});
