// Keeps the books' Crypto wallet (public) account equal to the business account's native balance
// on chain. Shields and unshields to our own account are posted when they confirm; what else moves
// the balance is visible only as a difference: money sent to the account from outside (posted as
// an owner contribution, to reclassify if it was something else) and the network fees its
// operations paid (posted as network fees). Read at the block the pool indexer reached, so every
// shield included up to it is already posted; keyed by that block's hash, so a new chain behind the
// same name never repeats a key. Right after a resync of a reset chain, a balance that vanished is
// what the reset undid (chain_reset), not fees.
import type { Address } from 'viem';
import type { Context } from '../context.js';
import { ACC } from '../ledger/chart.js';
import { accountIdOf } from '../ledger/ids.js';
import { postEvent, formatMinor } from '../ledger/index.js';
import { netDebitOf } from '../ledger/balances.js';
import { knownAccountAddress, knownRelayerAddress } from './accounts.js';
import type { ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { ledgerCurrency } from './tokens.js';
import { listEntityWallets } from './wallet-keys.js';
import { reconcileKey, relayerReconcileKey } from './chain-reorg.js';

/** An account's balance in the books, in base units. */
const booked = (ctx: Context, entityId: string, currency: string, code: string = ACC.cryptoWallet) => netDebitOf(ctx.db, entityId, accountIdOf(entityId, code), currency);

export async function reconcilePublicAccounts(ctx: Context, chain: ChainConfig, at: { number: bigint; hash: string } | null, options: { afterReset?: boolean } = {}): Promise<void> {
  const currency = ledgerCurrency({ address: '0x0000000000000000000000000000000000000000', symbol: chain.nativeSymbol, decimals: 18 });
  if (!currency || !at) return;
  const atBlock = at.number;
  const client = publicClientFor(chain);
  for (const wallet of listEntityWallets(ctx)) {
    await reconcileRelayer(ctx, chain, wallet.entityId, currency, at).catch((err: Error) => ctx.log.warn({ entityId: wallet.entityId, chain: chain.name, err: err.message }, 'relayer account not reconciled with the ledger'));
    const address = knownAccountAddress(ctx, wallet.entityId, chain.name);
    if (!address) continue;
    const onChain = await client.getBalance({ address: address as Address, blockNumber: atBlock });
    const delta = onChain - booked(ctx, wallet.entityId, currency);
    if (delta === 0n) continue;
    const amount = formatMinor(delta > 0n ? delta : -delta, currency);
    const common = { idempotencyKey: reconcileKey(chain.name, at.hash), source: 'privacy' };
    try {
      if (delta < 0n && options.afterReset) {
        postEvent(ctx, wallet.entityId, { type: 'chain_reset', payload: { account: ACC.cryptoWallet, currency, amount, chain: chain.name }, ...common }, { source: 'privacy' });
      } else if (delta > 0n) {
        postEvent(ctx, wallet.entityId, { type: 'owner_contribution', payload: { ownerName: 'Deposit to the business account', currency, amount, depositAccount: ACC.cryptoWallet }, ...common }, { source: 'privacy' });
      } else {
        postEvent(
          ctx,
          wallet.entityId,
          { type: 'expense_recorded', payload: { description: `Network fees paid by the business account on ${chain.name}`, merchant: chain.name, currency, netAmount: amount, taxAmount: '0', expenseAccount: ACC.networkFees, paymentAccount: ACC.cryptoWallet }, ...common },
          { source: 'privacy' },
        );
      }
    } catch (err) {
      ctx.log.warn({ entityId: wallet.entityId, chain: chain.name, err: (err as Error).message }, 'public account not reconciled with the ledger');
    }
  }
}

/**
 * The business's relayer account (1320) equal to its balance on chain: what it received is a
 * deposit by the owner (to reclassify if it was something else), what it lost is the gas it paid
 * to submit the business's private transfers (relayer_gas_paid, a network fee).
 */
async function reconcileRelayer(ctx: Context, chain: ChainConfig, entityId: string, currency: string, at: { number: bigint; hash: string }): Promise<void> {
  const address = knownRelayerAddress(ctx, entityId, chain.name);
  if (!address) return;
  const onChain = await publicClientFor(chain).getBalance({ address: address as Address, blockNumber: at.number });
  const delta = onChain - booked(ctx, entityId, currency, ACC.relayerAccount);
  if (delta === 0n) return;
  const amount = formatMinor(delta > 0n ? delta : -delta, currency);
  const common = { idempotencyKey: relayerReconcileKey(chain.name, at.hash), source: 'privacy' };
  if (delta > 0n) {
    postEvent(ctx, entityId, { type: 'owner_contribution', payload: { ownerName: 'Deposit to the relayer account', currency, amount, depositAccount: ACC.relayerAccount }, ...common }, { source: 'privacy' });
  } else {
    postEvent(ctx, entityId, { type: 'relayer_gas_paid', payload: { currency, amount, chain: chain.name }, ...common }, { source: 'privacy' });
  }
}
