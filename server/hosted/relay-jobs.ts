// Relay jobs: one per chain and set of nullifiers. A bundle is claimed (`submitting`) before it is
// sent, so an identical bundle — concurrent, later, or in another hosted process on the same
// PostgreSQL — is answered with the same job and never submitted twice. Progress comes from the
// bundler's receipt when a job is read. Jobs are kept for a week; after that the on-chain
// nullifier check answers a replay.
import { and, eq, lt } from 'drizzle-orm';
import type { Hex } from 'viem';
import { z } from 'zod';
import { NotFoundError } from '../http/errors.js';
import { loadBundler, type ChainConfig } from '../wallet/index.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { relayJobs } from './schema.js';

export type RelayJob = typeof relayJobs.$inferSelect;

export const JOB_RETENTION_MS = 7 * 24 * 3600_000;
/** A claim older than this was left by a process that died mid-submission: it may be taken over. */
const STALE_CLAIM_MS = 2 * 60_000;

export const jobParams = z.object({ id: z.uuid('must be a relay job id (UUID)') });

export const jobSchema = z.object({
  id: z.string(),
  chain: z.string(),
  status: z.enum(['submitting', 'submitted', 'confirmed', 'failed']),
  token: z.string(),
  fee: z.string().meta({ description: 'What the pool pays the relayer (base units of the token)' }),
  userOpHash: z.string().nullable(),
  txHash: z.string().nullable(),
  gasCost: z.string().nullable().meta({ description: 'What the UserOperation cost the relayer (wei), once included' }),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export function presentJob(job: RelayJob): z.output<typeof jobSchema> {
  const iso = (t: string) => new Date(t).toISOString();
  return { id: job.id, chain: job.chain, status: job.status, token: job.token, fee: job.fee, userOpHash: job.userOpHash, txHash: job.txHash, gasCost: job.gasCost, error: job.error, createdAt: iso(job.createdAt), updatedAt: iso(job.updatedAt) };
}

export function nullifierKeyOf(nullifiers: readonly string[]): string {
  return nullifiers
    .map((n) => `0x${BigInt(n).toString(16).padStart(64, '0')}`)
    .sort()
    .join(',');
}

export async function findJob(h: HostedContext, chain: string, key: string): Promise<RelayJob | null> {
  const [row] = await h.store.db.select().from(relayJobs).where(and(eq(relayJobs.chain, chain), eq(relayJobs.nullifierKey, key)));
  return row ?? null;
}

/** Claims the bundle for this request; null when another request holds or has submitted it. */
export async function claimJob(h: HostedContext, chain: ChainConfig, key: string, token: string, fee: bigint): Promise<RelayJob | null> {
  const now = serverTime(h);
  const [claimed] = await h.store.db
    .insert(relayJobs)
    .values({ id: h.ids.next(), chain: chain.name, nullifierKey: key, status: 'submitting', token, fee: fee.toString(), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (claimed) return claimed;
  const staleBefore = new Date(h.clock.now().getTime() - STALE_CLAIM_MS).toISOString();
  const [takenOver] = await h.store.db
    .update(relayJobs)
    .set({ updatedAt: now, token, fee: fee.toString() })
    .where(and(eq(relayJobs.chain, chain.name), eq(relayJobs.nullifierKey, key), eq(relayJobs.status, 'submitting'), lt(relayJobs.updatedAt, staleBefore)))
    .returning();
  return takenOver ?? null;
}

/** The submission failed before reaching the chain: the bundle may be sent again. */
export async function releaseJob(h: HostedContext, id: string): Promise<void> {
  await h.store.db.delete(relayJobs).where(and(eq(relayJobs.id, id), eq(relayJobs.status, 'submitting')));
}

export async function markSubmitted(h: HostedContext, id: string, userOpHash: Hex): Promise<RelayJob> {
  const [row] = await h.store.db.update(relayJobs).set({ status: 'submitted', userOpHash, updatedAt: serverTime(h) }).where(eq(relayJobs.id, id)).returning();
  return row;
}

/** Waits for another request's claim to be submitted or released (it takes the bundler a moment). */
export async function awaitClaim(h: HostedContext, chain: string, key: string, timeoutMs = 30_000): Promise<RelayJob | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await findJob(h, chain, key);
    if (!job || job.status !== 'submitting' || Date.now() > until) return job;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A job by id, its progress refreshed from the bundler while it is in flight. Unknown or older than a week → 404. */
export async function readJob(h: HostedContext, id: string, chains: Map<string, ChainConfig> | undefined): Promise<RelayJob> {
  const [job] = await h.store.db.select().from(relayJobs).where(eq(relayJobs.id, id));
  if (!job || Date.parse(job.createdAt) < h.clock.now().getTime() - JOB_RETENTION_MS) throw new NotFoundError('Unknown relay job');
  const chain = chains?.get(job.chain);
  if (job.status !== 'submitted' || !job.userOpHash || !chain) return job;
  const { userOpOutcome } = await loadBundler();
  const outcome = await userOpOutcome(chain, job.userOpHash as Hex);
  if (!outcome) return job;
  const [updated] = await h.store.db
    .update(relayJobs)
    .set({ status: outcome.success ? 'confirmed' : 'failed', txHash: outcome.txHash, gasCost: outcome.gasCost.toString(), error: outcome.reason, updatedAt: serverTime(h) })
    .where(and(eq(relayJobs.id, id), eq(relayJobs.status, 'submitted')))
    .returning();
  return updated ?? job;
}

/** Forgets jobs past their retention (called now and then by submissions). */
export async function pruneJobs(h: HostedContext): Promise<void> {
  const before = new Date(h.clock.now().getTime() - JOB_RETENTION_MS).toISOString();
  await h.store.db.delete(relayJobs).where(lt(relayJobs.createdAt, before));
}
