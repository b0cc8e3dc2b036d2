// Faster confirm: the wallet proves a send or unshield while the person reads the confirm screen
// (POST /api/privacy/transfers/prepare), so Confirm (POST /api/privacy/transfers/confirm) relays a
// bundle that is already proved. A prepared proof stays in this process's memory — never in an
// answer, never on disk — belongs to one entity, is used once, and only for exactly the transfer
// it was proved for: anything else (another amount, recipient, purpose or token, an expired
// quote, a root the pool forgot, another entity's id) is proved again at Confirm.
import type { Context } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { InvalidRootError, SpentNullifierError } from './errors.js';
import { checkPoolState } from './relay.js';
import { relayRecorded } from './relay-recorded.js';
import { bundleOfSpend, parseSpend, proveSpend, recordSpend, type ProvedSpend, type SpendInput, type SpendSpec } from './spend.js';

/** How long a proof for the wallet's own relayer is kept (a hosted quote's own expiry may be sooner). */
const PREPARED_TTL_MS = 10 * 60_000;
/** A quote this close to its expiry would run out on the way to the relay. */
const QUOTE_MARGIN_MS = 20_000;

interface Prepared {
  id: string;
  fingerprint: string;
  expiresAt: number;
  proof: Promise<ProvedSpend>;
}

/** Why Confirm proved again instead of using the prepared proof; null when it used it. */
export type ReproveReason = 'none' | 'unknown' | 'changed' | 'expired' | 'stale' | 'failed' | null;

/** One prepared proof per entity and chain: preparing again (the person went back and changed something) replaces it. */
const slots = new WeakMap<Context, Map<string, Prepared>>();
const confirming = new WeakMap<Context, Map<string, number>>();

function slotsOf(ctx: Context): Map<string, Prepared> {
  let m = slots.get(ctx);
  if (!m) slots.set(ctx, (m = new Map()));
  return m;
}

function fingerprintOf(entityId: string, spec: SpendSpec): string {
  return JSON.stringify([entityId, spec.kind, spec.chain.name, spec.token.toLowerCase(), spec.amount.toString(), spec.recipient?.toLowerCase() ?? null, spec.purpose]);
}

function expiryOf(ctx: Context, p: ProvedSpend): number {
  const quoteEnds = p.relay.quote ? Date.parse(p.relay.quote.expiresAt) - QUOTE_MARGIN_MS : Infinity;
  const deadline = Number(p.relay.deadline) * 1000 - QUOTE_MARGIN_MS;
  return Math.min(ctx.clock.now().getTime() + PREPARED_TTL_MS, quoteEnds, deadline);
}

export type TransferRequest = Omit<SpendInput, 'kind'> & { kind: 'send' | 'unshield' };
const spendInput = (r: TransferRequest): SpendInput => ({ ...r, kind: r.kind === 'send' ? 'sent' : 'unshielded' });

export async function prepareTransfer(ctx: Context, entityId: string, request: TransferRequest) {
  const spec = parseSpend(ctx, entityId, spendInput(request));
  const key = `${entityId}|${spec.chain.name}`;
  const entry: Prepared = { id: ctx.ids.next(), fingerprint: fingerprintOf(entityId, spec), expiresAt: 0, proof: proveSpend(ctx, entityId, spec) };
  slotsOf(ctx).set(key, entry);
  let proved: ProvedSpend;
  try {
    proved = await entry.proof;
  } catch (err) {
    if (slotsOf(ctx).get(key) === entry) slotsOf(ctx).delete(key);
    throw err;
  }
  entry.expiresAt = expiryOf(ctx, proved);
  return {
    success: true as const,
    preparedId: entry.id,
    expiresAt: new Date(entry.expiresAt).toISOString(),
    via: proved.relay.via,
    relayer: proved.relay.relayer as string,
    fee: proved.relay.fee.toString(),
  };
}

/** The prepared proof for exactly this transfer, taken out (single use); or why there is none. */
async function takePrepared(ctx: Context, entityId: string, spec: SpendSpec, preparedId: string | undefined): Promise<{ proved: ProvedSpend | null; reason: ReproveReason }> {
  if (!preparedId) return { proved: null, reason: 'none' };
  const key = `${entityId}|${spec.chain.name}`;
  const entry = slotsOf(ctx).get(key);
  if (!entry || entry.id !== preparedId) return { proved: null, reason: 'unknown' };
  slotsOf(ctx).delete(key);
  const proved = await entry.proof.catch(() => null);
  if (!proved) return { proved: null, reason: 'failed' };
  if (entry.fingerprint !== fingerprintOf(entityId, spec)) return { proved: null, reason: 'changed' };
  if (ctx.clock.now().getTime() >= (entry.expiresAt || expiryOf(ctx, proved))) return { proved: null, reason: 'expired' };
  try {
    await checkPoolState(spec.chain, bundleOfSpend(proved));
  } catch (err) {
    // Another transfer spent its notes or moved the root out of the pool's window.
    if (err instanceof InvalidRootError || err instanceof SpentNullifierError) return { proved: null, reason: 'stale' };
    throw err;
  }
  return { proved, reason: null };
}

export async function confirmTransfer(ctx: Context, entityId: string, request: TransferRequest & { preparedId?: string }) {
  const spec = parseSpend(ctx, entityId, spendInput(request));
  const counts = confirming.get(ctx) ?? new Map<string, number>();
  confirming.set(ctx, counts);
  counts.set(spec.chain.name, (counts.get(spec.chain.name) ?? 0) + 1);
  try {
    const taken = await takePrepared(ctx, entityId, spec, request.preparedId);
    const proved = taken.proved ?? (await proveSpend(ctx, entityId, spec));
    const activity = recordSpend(ctx, entityId, proved);
    const relayed = await relayRecorded(ctx, entityId, activity.id);
    return {
      success: true as const,
      activityId: activity.id,
      proofId: activity.proofId!,
      userOpHash: relayed.userOpHash,
      chain: spec.chain.name,
      via: relayed.via ?? ('own' as const),
      ...(relayed.jobId ? { jobId: relayed.jobId } : {}),
      relayer: proved.relay.relayer as string,
      fee: proved.relay.fee.toString(),
      usedPrepared: taken.proved !== null,
      reproveReason: taken.reason,
    };
  } finally {
    counts.set(spec.chain.name, (counts.get(spec.chain.name) ?? 1) - 1);
  }
}

/** A resync waits for a Confirm on the chain to finish, and drops proofs made on the old tree. */
export function assertNoConfirmInFlight(ctx: Context, chain: string): void {
  if ((confirming.get(ctx)?.get(chain) ?? 0) > 0) throw new ConflictError(`A transfer is in flight on ${chain}: resync once it is confirmed or has failed`, { chain });
  for (const key of [...slotsOf(ctx).keys()]) if (key.endsWith(`|${chain}`)) slotsOf(ctx).delete(key);
}
