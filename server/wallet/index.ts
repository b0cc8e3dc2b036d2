import { local, mutable, mutableExcept, secret } from '../kernel/sync-policy.js';
import type { Module } from '../kernel/module.js';
import type { Context } from '../context.js';
import { walletRoutes } from './routes.js';
import { chainRegistry, type ChainConfig } from './chains.js';
import { closeProver } from './prover.js';
import { walletEvents } from './events.js';
import { backoffMs } from '../backoff.js';

const INDEX_INTERVAL_MS = 4000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** A chain that cannot be reached is retried with exponential backoff, logged once per failure streak step. */
function indexerTick(ctx: Context, chain: ChainConfig): () => Promise<void> {
  let failures = 0;
  let retryAt = 0;
  return async () => {
    const now = ctx.clock.now().getTime();
    if (now < retryAt) return;
    try {
      // The indexer (viem, the privacy library) loads with the first tick, not at start.
      const { syncChain } = await import('./chain-sync.js');
      await syncChain(ctx, chain);
      if (failures > 0) ctx.log.info({ chain: chain.name }, 'wallet indexer recovered');
      failures = 0;
      retryAt = 0;
    } catch (err) {
      failures++;
      retryAt = now + backoffMs(failures + 1, { baseMs: INDEX_INTERVAL_MS, maxMs: MAX_BACKOFF_MS });
      ctx.log.warn({ chain: chain.name, failures, reason: (err as { details?: { reason?: string } }).details?.reason ?? (err as Error).message }, 'wallet indexer could not sync');
    }
  };
}

/** One indexer loop per configured chain: finds received notes, spends and confirmations. */
function startWallet(ctx: Context): void {
  for (const chain of chainRegistry(ctx).chains.values()) ctx.loops.add(`wallet-index:${chain.name}`, INDEX_INTERVAL_MS, indexerTick(ctx, chain));
}

/** Shielded transfers: keys, smart accounts, shield / prove / unshield, the relay and the indexer. */
export const walletModule: Module = {
  name: 'wallet',
  routes: walletRoutes,
  events: walletEvents,
  start: startWallet,
  stop: closeProver,
  sync: {
    wallet_keys: secret('spending and viewing keys never leave the device'),
    wallet_accounts: local('smart-account owner keys of this device'),
    wallet_notes: secret('note plaintext never leaves the device'),
    wallet_holders: mutable,
    // The history travels so other devices can show it; what would link the entity to its
    // on-chain transfers (and to relayed bundles at a shared relayer) stays here.
    wallet_activity: mutableExcept({ counterparty: null, proof_id: null, user_op_hash: null, tx_hash: null, nullifiers: '[]', nullifier_key: null, commitments: '[]' }),
    wallet_relays: local('relay bookkeeping of this device'),
    wallet_bundles: local('proved bundles kept for Try again: they link the entity to its on-chain transfers'),
    wallet_relayers: secret('relayer keys of this device'),
    wallet_indexer_snapshots: local('chain index cache'),
  },
};

export { closeProver };
export { checkChainsFile, DEFAULT_CHAIN, loadChains, NOT_CONFIGURED, type ChainConfig } from './chains.js';
export { relayBody, relayQuoteProof } from './schemas.js';
export { assertRelayable } from './errors.js';
export { cachedPromise } from './promise-cache.js';
// Loaded at first use, as the hosted relay needs them (viem clients and the bundler are heavy to load at start).
export const loadBundler = () => import('./bundler.js');
export const loadChainClients = () => import('./clients.js');
export const loadRelay = () => import('./relay.js');
