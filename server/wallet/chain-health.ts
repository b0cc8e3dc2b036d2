// GET /api/privacy/health: whether the chain's node and bundler answer now, and what each outage
// stops — so the wallet page can say what is affected and offer Retry instead of "Loading…".
import type { Context } from '../context.js';
import { requireChain } from './chains.js';
import { publicClientFor } from './clients.js';
import { pingBundler } from './bundler.js';
import { peekChainState } from './chain-sync.js';

const firstLine = (err: unknown) => ((err as { details?: { reason?: string } }).details?.reason ?? (err as Error).message).split('\n')[0].slice(0, 300);

async function probe(check: () => Promise<unknown>): Promise<{ ok: boolean; problem: string | null }> {
  try {
    await check();
    return { ok: true, problem: null };
  } catch (err) {
    return { ok: false, problem: firstLine(err) };
  }
}

export async function getChainHealth(ctx: Context, input: { chain?: string }) {
  const chain = requireChain(ctx, input.chain);
  const [rpc, bundler] = await Promise.all([probe(() => publicClientFor(chain).getBlockNumber()), probe(() => pingBundler(chain))]);
  const affected: string[] = [];
  if (!rpc.ok) affected.push('balances and history may be out of date', 'nothing can be shielded, sent or unshielded', 'transfers already submitted are confirmed when the chain answers again');
  else if (!bundler.ok) affected.push('nothing can be shielded, sent or unshielded (they are submitted through the bundler)', 'a send that was proved can be tried again once it answers');
  const state = peekChainState(ctx, chain.name);
  return { chain: chain.name, rpc, bundler, indexer: { problem: state?.lastError ?? null, lastSyncAt: state?.lastSyncAt ?? null }, affected };
}
