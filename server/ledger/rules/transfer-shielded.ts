import { z } from 'zod';
import { ACC } from '../chart.js';
import { amount, currency, defineEventType, journal, moneyPayload, optionalAmount } from './define.js';

export const transferShielded = defineEventType({
  type: 'transfer_shielded',
  title: 'Shielded transfer',
  description: 'Funds moved between the public wallet and the shielded (private) pool; posted by the privacy module.',
  schemaVersion: '1',
  flow: 'internal',
  recordable: false,
  payload: moneyPayload(
    {
      direction: z.enum(['shield', 'unshield']).meta({ description: '`shield`: wallet → pool; `unshield`: pool → wallet' }),
      currency: currency.meta({ description: 'The asset, e.g. `ETH/18` for native ETH or `USDC/6`', example: 'ETH/18' }),
      amount,
      fee: optionalAmount.meta({ description: 'Network or relayer fee paid on top, in the same asset' }),
      chain: z.string().min(1).max(40).optional(),
      reference: z.string().min(1).max(200).optional().meta({ description: 'User operation hash or proof id' }),
    },
    ['amount', 'fee'],
  ),
  example: { direction: 'shield', currency: 'ETH/18', amount: '0.5', fee: '0.0001', chain: 'base-sepolia' },
  rule: 'shield: debit Shielded funds (1310) with the amount and Bank and network fees (6700) with the fee; credit Crypto wallet (1300) with amount + fee. unshield: debit Crypto wallet (1300) with the amount and fees (6700) with the fee; credit Shielded funds (1310) with amount + fee.',
  post: (p) => {
    const [to, from] = p.direction === 'shield' ? [ACC.shieldedFunds, ACC.cryptoWallet] : [ACC.cryptoWallet, ACC.shieldedFunds];
    return journal(p.currency).debit(to, p.amount).debit(ACC.networkFees, p.fee).credit(from, p.amount, p.fee).lines();
  },
  describe: (p) => (p.direction === 'shield' ? 'Shielded funds (wallet → pool)' : 'Unshielded funds (pool → wallet)'),
});
