// POST /api/relay/transfer: submits a proved bundle through this install's relayer account. The
// relay sees only proof data and ciphertexts. Before spending gas it checks that the root is
// still one of the pool's last 100 and that no nullifier is spent. A bundle is keyed on its
// nullifiers: relaying it again answers with the first submission instead of a second one.
// A bundle built on a hosted relay's quote (a linked entity's, proved here) goes to that relay.
import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { BadGatewayError, BadRequestError, HttpError } from '../http/errors.js';
import { decodeProof, encodeTransactCall, isKnownRoot, isNullifierSpent } from '../privacy/index.js';
import { requireChain, type ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { INSTALL_RELAYER, knownRelayerAddress, relayerAccount } from './accounts.js';
import { sendCalls } from './bundler.js';
import { nullifierKey } from './activity.js';
import { assertRelayable, BundlerRejectionError, InvalidRootError, SpentNullifierError } from './errors.js';
import { walletActivity, walletBundles, walletRelayers, walletRelays } from './tables.js';
import type { RelayPayload } from './schemas.js';
import { linkedHostedUrl, submitToHosted } from './hosted-relay.js';

export interface RelayResult {
  success: true;
  userOpHash: Hex;
  replayed: boolean;
  /** Only for a bundle the hosted relay took (this install's answer keeps the spec's shape). */
  via?: 'hosted';
  jobId?: string;
  relayer?: string;
  fee?: string;
}

const inFlight = new WeakMap<Context, Map<string, Promise<RelayResult>>>();

export async function relayTransfer(ctx: Context, payload: RelayPayload): Promise<RelayResult> {
  const chain = requireChain(ctx, payload.chain);
  const key = nullifierKey(payload.nullifierHashes);
  if (payload.quote) return relayThroughHosted(ctx, chain, payload, key);
  const earlier = ctx.db.select().from(walletRelays).where(and(eq(walletRelays.chain, chain.name), eq(walletRelays.nullifierKey, key))).get();
  if (earlier) return { success: true, userOpHash: earlier.userOpHash as Hex, replayed: true };
  let perCtx = inFlight.get(ctx);
  if (!perCtx) inFlight.set(ctx, (perCtx = new Map()));
  const running = perCtx.get(`${chain.name}|${key}`);
  if (running) return { ...(await running), replayed: true };
  const submission = submitBundle(ctx, chain, payload, key);
  perCtx.set(`${chain.name}|${key}`, submission);
  try {
    return await submission;
  } finally {
    perCtx.delete(`${chain.name}|${key}`);
  }
}

async function submitBundle(ctx: Context, chain: ChainConfig, payload: RelayPayload, key: string): Promise<RelayResult> {
  assertRelayable(payload, ctx.clock.now());
  if (new Set(payload.nullifierHashes.map((n) => n.toLowerCase())).size !== payload.nullifierHashes.length) throw new BadRequestError('nullifierHashes must differ');
  try {
    await checkPoolState(chain, payload);
  } catch (err) {
    if (err instanceof InvalidRootError || err instanceof SpentNullifierError) failLinkedActivity(ctx, chain, key, err.message);
    else noteRelayError(ctx, chain, key, err);
    throw err;
  }

  const data = encodeTransactCall({
    proof: {
      ...decodeProof(payload.proof as Hex),
      root: BigInt(payload.root),
      inputNullifiers: [BigInt(payload.nullifierHashes[0]), BigInt(payload.nullifierHashes[1])],
      outputCommitments: [BigInt(payload.newCommitments[0]), BigInt(payload.newCommitments[1])],
    },
    extData: {
      token: payload.token as Hex,
      recipient: payload.recipient as Hex,
      extAmount: BigInt(payload.extAmount),
      relayer: payload.relayer as Hex,
      fee: BigInt(payload.fee),
      deadline: BigInt(payload.deadline),
      encryptedNotesRecipient: [payload.encryptedNotesRecipient[0] as Hex, payload.encryptedNotesRecipient[1] as Hex],
      encryptedNotesSender: [payload.encryptedNotesSender[0] as Hex, payload.encryptedNotesSender[1] as Hex],
    },
  });
  const account = await relayerAccount(ctx, chain, relayingEntity(ctx, chain, key, payload.relayer));
  const userOpHash = await sendCalls(chain, account, [{ to: chain.pool, data }]).catch((err: unknown) => {
    if (!(err instanceof BundlerRejectionError)) {
      noteRelayError(ctx, chain, key, err);
      throw err;
    }
    // The relayer pays this operation's gas: named, so "no ETH to pay the fee" points at the account to fund.
    const rejection = new BundlerRejectionError((err.details as { reason: string }).reason, 'relayer');
    failLinkedActivity(ctx, chain, key, `${rejection.message}: ${JSON.stringify(rejection.details)}`);
    throw rejection;
  });
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    tx.insert(walletRelays).values({ id: ctx.ids.next(), chain: chain.name, nullifierKey: key, userOpHash, createdAt: now }).onConflictDoNothing().run();
    // When the bundle was proved on this install, its history row now shows the submission.
    markSubmitted(ctx, tx, chain, key, userOpHash);
  });
  return { success: true, userOpHash, replayed: false };
}

/**
 * A bundle on a hosted relay's quote, proved on this install for a linked entity: submitted to
 * that entity's hosted instance (the only URL this unauthenticated route will call). A bundle
 * with a quote that was not proved here is refused: this install's relayer would pay its gas
 * while the fee went to the hosted relayer.
 */
const HOPELESS = new Set(['Invalid Merkle root', 'Spent nullifier', 'Bundle expired: prove again', 'Unknown relay quote', 'Relay quote expired', 'Relay fee no longer covers gas']);

async function relayThroughHosted(ctx: Context, chain: ChainConfig, payload: RelayPayload, key: string): Promise<RelayResult> {
  const proved = ctx.db
    .select({ entityId: walletActivity.entityId })
    .from(walletActivity)
    .where(and(eq(walletActivity.chain, chain.name), eq(walletActivity.nullifierKey, key)))
    .get();
  const url = proved ? linkedHostedUrl(ctx, proved.entityId) : null;
  if (!url) throw new BadRequestError("This bundle was built on a hosted relay's quote: submit it to that relay");
  let answer;
  try {
    answer = await submitToHosted(url, payload);
  } catch (err) {
    // A refusal that proving again is the only cure for shows in the history; an outage or a rate limit does not.
    if (err instanceof HttpError && HOPELESS.has(err.message)) failLinkedActivity(ctx, chain, key, err.message);
    else noteRelayError(ctx, chain, key, err);
    throw err;
  }
  write(ctx, (tx) => markSubmitted(ctx, tx, chain, key, answer.userOpHash));
  return { success: true, userOpHash: answer.userOpHash, replayed: answer.replayed, via: 'hosted', jobId: answer.jobId, relayer: answer.relayer, fee: answer.fee };
}

/**
 * Who relays a bundle: the relayer bound into its proof when it is one of this install's (a
 * business's own — the one that proved it here, or that an outside sender named, as before any
 * bundle was relayed by the install's one relayer); any other bundle, the install's own relayer.
 */
function relayingEntity(ctx: Context, chain: ChainConfig, key: string, relayer: string): string {
  const proved = ctx.db.select({ entityId: walletActivity.entityId }).from(walletActivity).where(and(eq(walletActivity.chain, chain.name), eq(walletActivity.nullifierKey, key))).get();
  if (proved && knownRelayerAddress(ctx, proved.entityId, chain.name)?.toLowerCase() === relayer.toLowerCase()) return proved.entityId;
  const named = ctx.db.select({ entityId: walletRelayers.entityId, address: walletRelayers.accountAddress }).from(walletRelayers).where(eq(walletRelayers.chain, chain.name)).all();
  return named.find((r) => r.address.toLowerCase() === relayer.toLowerCase())?.entityId ?? INSTALL_RELAYER;
}

type Tx = Parameters<Parameters<Context['db']['transaction']>[0]>[0];

function markSubmitted(ctx: Context, tx: Tx, chain: ChainConfig, key: string, userOpHash: string): void {
  const now = nowIso(ctx);
  const where = and(eq(walletActivity.chain, chain.name), eq(walletActivity.nullifierKey, key), eq(walletActivity.status, 'proved'));
  const rows = tx.select({ id: walletActivity.id }).from(walletActivity).where(where).all();
  tx.update(walletActivity).set({ status: 'submitted', userOpHash, updatedAt: now }).where(where).run();
  for (const r of rows) tx.update(walletBundles).set({ relayError: null, updatedAt: now }).where(eq(walletBundles.activityId, r.id)).run();
}

/**
 * A relay that failed for a reason that passes (bundler or chain unreachable, a rate limit): the
 * row stays `proved`, with why, so the wallet offers Try again with the same proof.
 */
function noteRelayError(ctx: Context, chain: ChainConfig, key: string, err: unknown): void {
  const details = (err as { details?: { reason?: unknown } }).details;
  const message = err instanceof HttpError ? `${err.message}${typeof details?.reason === 'string' ? `: ${details.reason}` : ''}` : 'The relay could not be reached';
  const rows = ctx.db
    .select({ id: walletActivity.id })
    .from(walletActivity)
    .where(and(eq(walletActivity.chain, chain.name), eq(walletActivity.nullifierKey, key), eq(walletActivity.status, 'proved')))
    .all();
  for (const r of rows) ctx.db.update(walletBundles).set({ relayError: message.slice(0, 500), updatedAt: nowIso(ctx) }).where(eq(walletBundles.activityId, r.id)).run();
}

/** A definitive refusal of a bundle proved on this install shows in its history row. */
function failLinkedActivity(ctx: Context, chain: ChainConfig, key: string, error: string): void {
  ctx.db
    .update(walletActivity)
    .set({ status: 'failed', error, updatedAt: nowIso(ctx) })
    .where(and(eq(walletActivity.chain, chain.name), eq(walletActivity.nullifierKey, key), eq(walletActivity.status, 'proved')))
    .run();
}

/** The checks the pool would make, done first so a doomed bundle costs no gas. */
export async function checkPoolState(chain: ChainConfig, payload: Pick<RelayPayload, 'root' | 'nullifierHashes'>): Promise<void> {
  const client = publicClientFor(chain);
  let known: boolean;
  let spent: boolean[];
  try {
    [known, spent] = await Promise.all([
      isKnownRoot(client, chain.pool, BigInt(payload.root)),
      Promise.all(payload.nullifierHashes.map((n) => isNullifierSpent(client, chain.pool, BigInt(n)))),
    ]);
  } catch (err) {
    throw new BadGatewayError('Chain RPC unreachable', { reason: (err as Error).message.split('\n')[0] });
  }
  if (!known) throw new InvalidRootError();
  const spentOnes = payload.nullifierHashes.filter((_, i) => spent[i]);
  if (spentOnes.length) throw new SpentNullifierError(spentOnes);
}
