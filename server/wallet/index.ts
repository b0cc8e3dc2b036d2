import type { Module } from '../modules.js';
import type { Context } from '../context.js';
import { walletRoutes } from './routes.js';
import { chainRegistry } from './chains.js';
import { syncChain } from './chain-sync.js';

const INDEX_INTERVAL_MS = 4000;

/** One indexer loop per configured chain: finds received notes, spends and confirmations. */
function startWallet(ctx: Context): void {
  for (const chain of chainRegistry(ctx).chains.values()) {
    ctx.loops.add(`wallet-index:${chain.name}`, INDEX_INTERVAL_MS, async () => {
      await syncChain(ctx, chain);
    });
  }
}

/** Shielded transfers: keys, smart accounts, shield / prove / unshield, the relay and the indexer. */
export const walletModule: Module = { name: 'wallet', routes: walletRoutes, start: startWallet };

export { closeProver } from './prover.js';
