import { z } from 'zod';
import { ACC } from '../chart.js';
import { amount, currency, defineEventType, journal, moneyPayload } from './define.js';

/**
 * Gas the business's own relayer account paid to submit its private transfers: a network fee,
 * out of the relayer account. Posted by the privacy module when it reconciles that account with
 * the chain, so the books' Relayer account (1320) equals the relayer's balance.
 */
export const relayerGasPaid = defineEventType({
  type: 'relayer_gas_paid',
  title: 'Relayer gas paid',
  description: "Gas the business's relayer account paid to submit its private transfers (posted by the privacy module).",
  schemaVersion: '1',
  flow: 'out',
  recordable: false,
  payload: moneyPayload({ currency, amount, chain: z.string().min(1).max(40) }, ['amount']),
  example: { currency: 'ETH/18', amount: '0.0004', chain: 'local' },
  rule: 'Debit Bank and network fees (6700) and credit Relayer account (1320) with the amount.',
  post: (p) => journal(p.currency).debit(ACC.networkFees, p.amount).credit(ACC.relayerAccount, p.amount).lines(),
  describe: (p) => `Gas paid by the relayer account on ${p.chain}`,
});
