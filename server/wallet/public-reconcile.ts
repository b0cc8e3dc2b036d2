// Keeps the books' Crypto wallet (public) account equal to the business account's native balance
// on chain. Shields and unshields to our own account are posted when they confirm; what else moves
// the balance is visible only as a difference: money sent to the account from outside (posted as
// an owner contribution, to reclassify if it was something else) and the network fees its
// operations paid (posted as network fees). Read at the block the pool indexer reached, so every
// shield included up to it is already posted; keyed by that block's hash, so a new chain behind the
// same name never repeats a key. Right after a resync of a reset chain, a balance that vanished is
// what the reset undid (chain_reset), not fees.
// The books have one account per currency, not per chain: chains that share a native currency
// (two pools on one chain, or two networks paying in ETH) are reconciled together — the account
// equals the sum of the business's distinct addresses on them, each read at the block its indexer
// reached — so one chain's reconcile never books another chain's balance away.
import type { Address } from 'viem';
import type { Context } from '../context.js';
import { ACC, accountIdOf, postEvent, formatMinor, netDebitOf } from '../ledger/index.js';
import { knownAccountAddress, knownRelayerAddress } from './accounts.js';
import { chainRegistry, type ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { ledgerCurrency } from './tokens.js';
import { listEntityWallets } from './wallet-keys.js';
import { reconcileKey, relayerReconcileKey } from './chain-reorg.js';

/** An account's balance in the books, in base units. */
const booked = (ctx: Context, entityId: string, currency: string, code: string = ACC.cryptoWallet) => netDebitOf(ctx.db, entityId, accountIdOf(entityId, code), currency);

type Block = { number: bigint; hash: string };
/** The block another chain's indexer last reached, or null while it has none (not synced yet, or reset). */
export type PeerBlock = (chainName: string) => Block | null;
/** A chain of the reconciled currency and the block its balances are read at (null: not indexed yet). */
export type Reading = { chain: ChainConfig; block: bigint | null };

const nativeCurrency = (chain: ChainConfig) => ledgerCurrency({ address: '0x0000000000000000000000000000000000000000', symbol: chain.nativeSymbol, decimals: 18 });

/** One reconcile at a time per server: each reads the others' postings as booked, never half of them. */
const queues = new WeakMap<Context, Promise<unknown>>();

export function reconcilePublicAccounts(ctx: Context, chain: ChainConfig, at: Block | null, options: { afterReset?: boolean; peerBlock?: PeerBlock } = {}): Promise<void> {
  const run = (queues.get(ctx) ?? Promise.resolve()).then(() => reconcileChain(ctx, chain, at, options));
  queues.set(ctx, run.catch(() => undefined));
  return run;
}

/** This chain at `at`, then every other configured chain of the currency at the block its indexer reached. */
function readingsOf(ctx: Context, chain: ChainConfig, at: Block, currency: string, peerBlock: PeerBlock | undefined): Reading[] {
  const readings: Reading[] = [{ chain, block: at.number }];
  for (const other of chainRegistry(ctx).chains.values()) {
    if (other.name !== chain.name && nativeCurrency(other) === currency) readings.push({ chain: other, block: peerBlock?.(other.name)?.number ?? null });
  }
  return readings;
}

/**
 * The native balance of the entity's addresses on those chains (one address on one chain id counts
 * once); null when it has none, or one of them is on a chain not indexed yet — the total would be
 * short, so the next pass reconciles instead. `newest`: an address on a chain that two readings
 * share is read at the later of their blocks (the relayer, whose balance no indexer posts: reading
 * it at the older block after a newer one was booked would undo that booking as a deposit); else
 * at the first reading's (the business account, whose shields this chain's indexer posted up to it).
 */
export async function balanceOnChains(readings: Reading[], addressOn: (chainName: string) => string | null, at: 'first' | 'newest' = 'first'): Promise<bigint | null> {
  const reads = new Map<string, { chain: ChainConfig; address: string; block: bigint | null }>();
  for (const { chain, block } of readings) {
    const address = addressOn(chain.name);
    if (!address) continue;
    const key = `${chain.chainId}|${address.toLowerCase()}`;
    const seen = reads.get(key);
    if (!seen) reads.set(key, { chain, address, block });
    else if (at === 'newest' && seen.block !== null && block !== null && block > seen.block) seen.block = block;
  }
  if (reads.size === 0 || [...reads.values()].some((r) => r.block === null)) return null;
  const balances = await Promise.all([...reads.values()].map((r) => publicClientFor(r.chain).getBalance({ address: r.address as Address, blockNumber: r.block! })));
  return balances.reduce((a, b) => a + b, 0n);
}

async function reconcileChain(ctx: Context, chain: ChainConfig, at: Block | null, options: { afterReset?: boolean; peerBlock?: PeerBlock }): Promise<void> {
  const currency = nativeCurrency(chain);
  if (!currency || !at) return;
  const readings = readingsOf(ctx, chain, at, currency, options.peerBlock);
  for (const wallet of listEntityWallets(ctx)) {
    await reconcileRelayer(ctx, chain, wallet.entityId, currency, at, readings, options.afterReset === true).catch((err: Error) => ctx.log.warn({ entityId: wallet.entityId, chain: chain.name, err: err.message }, 'relayer account not reconciled with the ledger'));
    const onChain = await balanceOnChains(readings, (name) => knownAccountAddress(ctx, wallet.entityId, name));
    if (onChain === null) continue;
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
async function reconcileRelayer(ctx: Context, chain: ChainConfig, entityId: string, currency: string, at: Block, readings: Reading[], afterReset: boolean): Promise<void> {
  const onChain = await balanceOnChains(readings, (name) => knownRelayerAddress(ctx, entityId, name), 'newest');
  if (onChain === null) return;
  const delta = onChain - booked(ctx, entityId, currency, ACC.relayerAccount);
  if (delta === 0n) return;
  const amount = formatMinor(delta > 0n ? delta : -delta, currency);
  const common = { idempotencyKey: relayerReconcileKey(chain.name, at.hash), source: 'privacy' };
  if (delta < 0n && afterReset) {
    // Right after a resync of a reset chain the relayer's vanished balance is what the reset undid, not gas.
    postEvent(ctx, entityId, { type: 'chain_reset', payload: { account: ACC.relayerAccount, currency, amount, chain: chain.name }, ...common }, { source: 'privacy' });
  } else if (delta > 0n) {
    postEvent(ctx, entityId, { type: 'owner_contribution', payload: { ownerName: 'Deposit to the relayer account', currency, amount, depositAccount: ACC.relayerAccount }, ...common }, { source: 'privacy' });
  } else {
    postEvent(ctx, entityId, { type: 'relayer_gas_paid', payload: { currency, amount, chain: chain.name }, ...common }, { source: 'privacy' });
  }
}
