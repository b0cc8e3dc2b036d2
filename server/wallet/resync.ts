// POST /api/privacy/resync: rebuild this install's index of a chain and every entity's notes from
// it, without touching keys — the way out of a chain reset. Refused while a transfer is in flight.
import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Context } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { requireChain, type ChainConfig } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { rebuildChain } from './chain-sync.js';
import { bundlerClientFor } from './clients.js';
import { walletActivity } from './tables.js';
import { assertNoConfirmInFlight } from './prepared-transfer.js';

export async function resyncWallet(ctx: Context, entityId: string, input: { chain?: string }) {
  loadEntityWallet(ctx, entityId);
  const chain = requireChain(ctx, input.chain);
  const result = await rebuildChain(ctx, chain, (wasReset) => assertNothingInFlight(ctx, chain, wasReset));
  return { success: true as const, chain: chain.name, ...result };
}

/**
 * A submitted transfer would be confirmed (or failed) by the index the resync replaces: wait for
 * it. After a reset, one the chain's bundler no longer knows is gone with the old chain, not in flight.
 */
async function assertNothingInFlight(ctx: Context, chain: ChainConfig, wasReset: boolean): Promise<void> {
  assertNoConfirmInFlight(ctx, chain.name);
  const submitted = ctx.db.select().from(walletActivity).where(and(eq(walletActivity.chain, chain.name), eq(walletActivity.status, 'submitted'))).all();
  for (const row of submitted) {
    if (wasReset && row.userOpHash && !(await bundlerHolds(chain, row.userOpHash as Hex))) continue;
    throw new ConflictError(`A transfer is in flight on ${chain.name}: resync once it is confirmed or has failed`, { chain: chain.name, activityId: row.id });
  }
}

async function bundlerHolds(chain: ChainConfig, hash: Hex): Promise<boolean> {
  try {
    const op = await bundlerClientFor(chain).request({ method: 'eth_getUserOperationByHash', params: [hash] });
    return op !== null;
  } catch {
    return false; // an unreachable bundler holds nothing that could still land on the new chain
  }
}
