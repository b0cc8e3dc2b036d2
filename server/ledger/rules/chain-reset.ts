import { z } from 'zod';
import { ACC } from '../chart.js';
import { amount, currency, defineEventType, journal, moneyPayload } from './define.js';

/**
 * Funds the books held on a chain that was reset (a devnet restarted, a chain behind the same
 * name replaced): the new chain does not have them, so the books undo them against the owner's
 * equity they came from — neither a fee nor an expense. Posted by the privacy module on resync.
 */
const FUNDS: Record<string, string> = { [ACC.cryptoWallet]: 'public wallet funds', [ACC.shieldedFunds]: 'shielded funds', [ACC.relayerAccount]: 'relayer account funds' };

export const chainReset = defineEventType({
  type: 'chain_reset',
  title: 'Chain reset reversal',
  description: 'Funds a reset chain undid, removed from the books (posted by the privacy module when the wallet is resynced).',
  schemaVersion: '1',
  flow: 'internal',
  recordable: false,
  payload: moneyPayload(
    {
      account: z.enum([ACC.cryptoWallet, ACC.shieldedFunds, ACC.relayerAccount]).meta({ description: 'The account the reset emptied: Crypto wallet (public, 1300), Shielded funds (1310) or Relayer account (1320)' }),
      currency,
      amount,
      chain: z.string().min(1).max(40),
    },
    ['amount'],
  ),
  example: { account: ACC.cryptoWallet, currency: 'ETH/18', amount: '0.5', chain: 'local' },
  rule: "Debit Owner's equity (3000) and credit the account the reset emptied (1300, 1310 or 1320) with the amount.",
  post: (p) => journal(p.currency).debit(ACC.ownerEquity, p.amount).credit(p.account, p.amount).lines(),
  describe: (p) => `Reversal: ${FUNDS[p.account]} on ${p.chain} undone by a chain reset`,
});
