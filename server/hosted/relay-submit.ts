// POST /api/relay/transfer on the hosted instance: submits a proved bundle for any tenant through
// the hosted relayer, which the pool repays from the bundle's fee. Before spending gas it checks,
// in order: the bundle is not one it already has (answered with its job: nothing is submitted
// twice), not a deposit, not past its deadline, on a root among the pool's last 100, with
// unspent nullifiers, built on a quote of this relayer that has not expired; then the bundler
// simulates the UserOperation and its cost must be covered by the fee. Nothing of the bundle is
// logged or stored but its nullifiers (for idempotency), token and fee; never the client's IP.
import type { Hex } from 'viem';
import { z } from 'zod';
import { BadRequestError, ConflictError } from '../http/errors.js';
import { assertRelayable, loadBundler, loadRelay, relayBody, type ChainConfig } from '../wallet/index.js';
import { encodeTransactCall, parseRelayBundle } from '../privacy/index.js';
import type { HostedContext } from './context.js';
import { requireRelayChain, type HostedRelay } from './relay-config.js';
import { checkQuote } from './relay-quote.js';
import { assertFeeCovers } from './relay-fees.js';
import { awaitClaim, claimJob, findJob, markSubmitted, nullifierKeyOf, pruneJobs, releaseJob, type RelayJob } from './relay-jobs.js';

/** The desktop's relay body; here `quote` is required in practice (a bundle without one is `Unknown relay quote`). */
export const transferBody = relayBody.meta({ id: 'HostedRelayTransferBody', description: 'The bundle prove-transfer returns, as it returned it, with its quote.' });
export type TransferBody = z.output<typeof transferBody>;

export const transferResponse = z.object({
  success: z.literal(true),
  userOpHash: z.string(),
  replayed: z.boolean().meta({ description: 'true when this bundle (same nullifiers) was relayed before: its job is answered, nothing is submitted again' }),
  jobId: z.string().meta({ description: 'GET /api/relay/jobs/{jobId} for its progress' }),
  relayer: z.string(),
  fee: z.string(),
});
export type TransferResult = z.output<typeof transferResponse>;

const PRUNE_EVERY_MS = 3600_000;
const lastPrune = new WeakMap<HostedContext, number>();

export async function relayHostedTransfer(h: HostedContext, body: TransferBody): Promise<TransferResult> {
  const { relay, chain } = requireRelayChain(h.relay, body.chain);
  if (new Set(body.nullifierHashes.map((n) => BigInt(n))).size !== body.nullifierHashes.length) throw new BadRequestError('nullifierHashes must differ');
  const key = nullifierKeyOf(body.nullifierHashes);
  const relayer = (await relay.relayer.account(chain)).address;
  const earlier = await settledJob(h, chain.name, key);
  if (earlier) return answer(earlier, relayer, true);

  assertRelayable(body, h.clock.now());
  // The pool's verdict first: a bundle whose root aged out or whose notes are spent is hopeless whatever its quote.
  const { checkPoolState } = await loadRelay();
  await checkPoolState(chain, body);
  await checkQuote(relay, chain, body, h.clock);

  const job = await claimJob(h, chain, key, body.token, BigInt(body.fee));
  if (!job) {
    // Another request (here or in another process) holds the same bundle: its outcome is ours.
    const other = await settledJob(h, chain.name, key);
    if (other) return answer(other, relayer, true);
    throw new ConflictError('This bundle is being submitted by another request; try again shortly');
  }
  try {
    const userOpHash = await submit(relay, chain, body);
    const submitted = await markSubmitted(h, job.id, userOpHash);
    await pruneNowAndThen(h);
    return answer(submitted, relayer, false);
  } catch (err) {
    await releaseJob(h, job.id).catch(() => undefined);
    throw err;
  }
}

/** An earlier job of the bundle that has reached the bundler (waiting for one being submitted). */
async function settledJob(h: HostedContext, chain: string, key: string): Promise<RelayJob | null> {
  const job = await findJob(h, chain, key);
  if (!job) return null;
  const settled = job.status === 'submitting' ? await awaitClaim(h, chain, key) : job;
  return settled && settled.status !== 'submitting' ? settled : null;
}

async function submit(relay: HostedRelay, chain: ChainConfig, body: TransferBody): Promise<Hex> {
  // The privacy library is loaded already (the wallet's routes use it); the bundler at the first relay.
  const { prepareCalls, sendPrepared } = await loadBundler();
  let data: Hex;
  try {
    // Lower-case addresses: a wrong EIP-55 checksum is no reason to refuse a bundle (or to log its fields in an error).
    const lower = { ...body, token: body.token.toLowerCase(), recipient: body.recipient.toLowerCase(), relayer: body.relayer.toLowerCase() };
    data = encodeTransactCall(parseRelayBundle({ ...lower, chain: chain.name }).args);
  } catch {
    throw new BadRequestError('Malformed bundle: its fields do not make a pool transaction');
  }
  const account = await relay.relayer.account(chain);
  const prepared = await prepareCalls(chain, account, [{ to: chain.pool, data }]);
  assertFeeCovers(BigInt(body.fee), prepared.maxCost);
  return sendPrepared(chain, prepared);
}

function answer(job: RelayJob, relayer: string, replayed: boolean): TransferResult {
  return { success: true, userOpHash: job.userOpHash ?? '', replayed, jobId: job.id, relayer, fee: job.fee };
}

async function pruneNowAndThen(h: HostedContext): Promise<void> {
  const now = h.clock.now().getTime();
  if (now - (lastPrune.get(h) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(h, now);
  await pruneJobs(h).catch((err: unknown) => h.log.warn({ err: (err as Error).message }, 'relay job pruning failed'));
}
