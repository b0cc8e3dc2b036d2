// POST /api/privacy/transfers/{id}/retry: Try again for a send or unshield whose relay failed.
// The same proof is relayed again while it can still land (its root among the pool's last ones,
// its notes unspent, its deadline and quote not passed); otherwise the transfer is proved again
// from what the history row says (amount, recipient, purpose) and the row takes the new proof.
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors.js';
import { requireChain } from './chains.js';
import { InvalidRootError, SpentNullifierError } from './errors.js';
import { checkPoolState } from './relay.js';
import { relayRecorded } from './relay-recorded.js';
import { REORG_UNDONE } from './chain-reorg.js';
import { retryableFailure } from './retry-rules.js';
import { parseSpend, proveSpend, recordSpend, storedBundle, type Bundle } from './spend.js';
import { walletActivity } from './tables.js';

function stillValid(ctx: Context, bundle: Bundle): boolean {
  const now = ctx.clock.now().getTime();
  if (Number(bundle.deadline) * 1000 <= now + 60_000) return false;
  return !bundle.quote || Date.parse(bundle.quote.expiresAt) > now + 20_000;
}

/** Whether the same proof can still land; the pool's answer decides (a stale root → prove again). */
async function sameProofUsable(ctx: Context, bundle: Bundle, chainName: string): Promise<boolean> {
  if (!stillValid(ctx, bundle)) return false;
  try {
    await checkPoolState(requireChain(ctx, chainName), bundle);
    return true;
  } catch (err) {
    if (err instanceof InvalidRootError) return false;
    if (err instanceof SpentNullifierError) throw new ConflictError('Its notes are already spent: if this transfer went through, the wallet shows it confirmed shortly');
    throw err;
  }
}

export async function retryTransfer(ctx: Context, entityId: string, activityId: string) {
  const row = ctx.db.select().from(walletActivity).where(and(eq(walletActivity.id, activityId), eq(walletActivity.entityId, entityId))).get();
  if (!row) throw new NotFoundError('Unknown transfer');
  if (row.kind !== 'sent' && row.kind !== 'unshielded') throw new BadRequestError('Only a send or an unshield can be tried again');
  if (row.status === 'confirmed') throw new ConflictError('This transfer is already confirmed');
  if (row.status === 'submitted') throw new ConflictError('This transfer was submitted: it confirms or fails by itself');
  if (row.error === REORG_UNDONE) throw new ConflictError('A transfer undone by a chain reorganisation is confirmed again if the chain includes it again');
  if (row.status === 'failed' && !retryableFailure(row.error)) throw new ConflictError('Its notes were spent: sending it again could pay twice');
  const stored = storedBundle(ctx, entityId, row.id);
  if (stored && (await sameProofUsable(ctx, stored.bundle, row.chain))) {
    ctx.db.update(walletActivity).set({ status: 'proved', error: null, updatedAt: nowIso(ctx) }).where(eq(walletActivity.id, row.id)).run();
    const relayed = await relayRecorded(ctx, entityId, row.id);
    return { success: true as const, activityId: row.id, userOpHash: relayed.userOpHash, sameProof: true, via: relayed.via ?? ('own' as const), ...(relayed.jobId ? { jobId: relayed.jobId } : {}) };
  }
  const spec = parseSpend(ctx, entityId, { kind: row.kind, chain: row.chain, token: row.token, amount: row.amount, recipient: row.counterparty ?? undefined, purpose: row.purpose ?? undefined });
  const proved = await proveSpend(ctx, entityId, spec);
  recordSpend(ctx, entityId, proved, row);
  const relayed = await relayRecorded(ctx, entityId, row.id);
  return { success: true as const, activityId: row.id, userOpHash: relayed.userOpHash, sameProof: false, via: relayed.via ?? ('own' as const), ...(relayed.jobId ? { jobId: relayed.jobId } : {}) };
}
