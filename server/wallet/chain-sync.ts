// Per configured chain: the pool indexer (from the privacy library) and what its findings mean
// for each entity — owned notes, spent notes, confirmed or failed activities, received funds —
// written in one transaction per sync together with their domain events, notifications and
// ledger events.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { getAddress, hexToBytes, type Address, type Hex } from 'viem';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { BadGatewayError, ConflictError } from '../http/errors.js';
import { ChainIdMismatchError, ChainResetError, PoolIndexer, type IndexedCommitment, type Reorganisation, openNote, computeNullifier, toHex32 } from '../privacy/index.js';
import type { ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { listEntityWallets, type EntityWallet } from './wallet-keys.js';
import { walletActivity, walletIndexerSnapshots, walletNotes } from './tables.js';
import { BUNDLE_LIFETIME_SECONDS, formatAmount, insertActivity, recordTransferEvent, type ActivityRow } from './activity.js';
import { userOpOutcome } from './bundler.js';
import { ledgerCurrency, tokenInfo, type TokenInfo } from './tokens.js';
import { postEvent, ACC } from '../ledger/index.js';
import { announceReceived, postLedgerTransfer } from './side-effects.js';
import { reconcilePublicAccounts } from './public-reconcile.js';
import { orphanedNotes, REORG_UNDONE, reverseDroppedReconciliations, undoOrphaned } from './chain-reorg.js';

export interface ChainState {
  key: string;
  indexer: PoolIndexer;
  /** Commitments already trial-decrypted for every entity. */
  scanned: number;
  queue: Promise<unknown>;
  lastError: string | null;
  lastSyncAt: string | null;
  /**
   * The block the last completed sync reached, published before its reconcile runs. Another chain's
   * reconcile reads shared addresses at it: never the live indexer's, which a failed attempt
   * replaces with one re-indexing from the deploy block (an older block, or none).
   */
  syncedBlock: { number: bigint; hash: string } | null;
  /** The chain behind this name is not the one the wallet's notes came from: nothing syncs until a resync. */
  reset: boolean;
}

export const CHAIN_RESET_MESSAGE = 'This chain was reset: notes from before are gone';

function resetConflict(chain: ChainConfig): ConflictError {
  return new ConflictError(CHAIN_RESET_MESSAGE, { chain: chain.name, hint: 'Resync the wallet (POST /api/privacy/resync) to rebuild its notes from the chain' });
}

const states = new WeakMap<Context, Map<string, ChainState>>();

/** What the in-memory state belongs to: any configuration change starts a new one. */
function stateKey(chain: ChainConfig): string {
  return `${chain.chainId}|${chain.pool}|${chain.rpcUrl}`;
}

/**
 * What a stored snapshot belongs to: the chain id and pool, not the RPC URL (a restarted devnet
 * comes back on another port; its genesis hash tells whether it is the same chain).
 */
function snapshotKey(chain: ChainConfig): string {
  return `${chain.chainId}|${chain.pool}`;
}

function freshIndexer(chain: ChainConfig): PoolIndexer {
  return new PoolIndexer({ client: publicClientFor(chain), chainId: BigInt(chain.chainId), pool: chain.pool, fromBlock: BigInt(chain.poolDeployBlock) });
}

/**
 * Resumes from the stored snapshot when it belongs to this chain id and pool (the next sync checks
 * its genesis and last block). A snapshot of another chain id or pool under the same name means
 * the configuration now points at another chain: what the wallet derived is not on it (a reset).
 */
function restoredIndexer(ctx: Context, chain: ChainConfig): { indexer: PoolIndexer; reset: boolean } {
  const row = ctx.db.select().from(walletIndexerSnapshots).where(eq(walletIndexerSnapshots.chain, chain.name)).get();
  if (!row) return { indexer: freshIndexer(chain), reset: false };
  // Older rows were keyed chainId|pool|rpc.
  if (row.stateKey.split('|').slice(0, 2).join('|') !== snapshotKey(chain)) return { indexer: freshIndexer(chain), reset: true };
  try {
    return { indexer: PoolIndexer.restore({ client: publicClientFor(chain), chainId: BigInt(chain.chainId), pool: chain.pool }, row.snapshot), reset: false };
  } catch (err) {
    ctx.log.warn({ chain: chain.name, reason: (err as Error).message }, 'wallet indexer snapshot discarded');
    return { indexer: freshIndexer(chain), reset: false };
  }
}

/** Stores the indexer's state when it learned something new. */
function saveSnapshot(ctx: Context, chain: ChainConfig, indexer: PoolIndexer): void {
  const leaves = indexer.commitments.length;
  const nullifiers = indexer.spentNullifiers.size;
  const row = ctx.db.select({ leaves: walletIndexerSnapshots.leaves, nullifiers: walletIndexerSnapshots.nullifiers, stateKey: walletIndexerSnapshots.stateKey }).from(walletIndexerSnapshots).where(eq(walletIndexerSnapshots.chain, chain.name)).get();
  if (row && row.stateKey === snapshotKey(chain) && row.leaves === leaves && row.nullifiers === nullifiers) return;
  const values = { chain: chain.name, stateKey: snapshotKey(chain), snapshot: indexer.snapshot(), leaves, nullifiers, updatedAt: nowIso(ctx) };
  ctx.db.insert(walletIndexerSnapshots).values(values).onConflictDoUpdate({ target: walletIndexerSnapshots.chain, set: values }).run();
}

function newState(ctx: Context, chain: ChainConfig): ChainState {
  const { indexer, reset } = restoredIndexer(ctx, chain);
  return { key: stateKey(chain), indexer, scanned: 0, queue: Promise.resolve(), lastError: reset ? CHAIN_RESET_MESSAGE : null, lastSyncAt: null, syncedBlock: null, reset };
}

export function peekChainState(ctx: Context, chainName: string): ChainState | undefined {
  return states.get(ctx)?.get(chainName);
}

/** The block another chain's index stands at, for reconciling the currency it shares; null until it is trustworthy. */
export function indexedBlockOf(ctx: Context, chainName: string) {
  const state = peekChainState(ctx, chainName);
  return state && !state.reset ? state.syncedBlock : null;
}

function chainState(ctx: Context, chain: ChainConfig): ChainState {
  let perCtx = states.get(ctx);
  if (!perCtx) states.set(ctx, (perCtx = new Map()));
  let state = perCtx.get(chain.name);
  if (!state || state.key !== stateKey(chain)) {
    state = newState(ctx, chain);
    perCtx.set(chain.name, state);
  }
  return state;
}

/** Brings the chain's tree and every entity's notes up to date; syncs are serialised per chain. */
export function syncChain(ctx: Context, chain: ChainConfig): Promise<ChainState> {
  const state = chainState(ctx, chain);
  const run = state.queue.then(() => runSync(ctx, chain, state));
  state.queue = run.catch(() => undefined);
  return run.then(() => state);
}

async function runSync(ctx: Context, chain: ChainConfig, state: ChainState): Promise<void> {
  if (state.reset) throw resetConflict(chain);
  // A failed sync leaves the mirror half-applied: start over from the deploy block. One immediate
  // retry absorbs a node that answered the block number before its logs (seen under load).
  let reorg: Reorganisation | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      reorg = (await state.indexer.sync()).reorg;
      break;
    } catch (err) {
      if (err instanceof ChainResetError) throw markReset(ctx, chain, state, err.reason);
      if (err instanceof ChainIdMismatchError) {
        state.lastError = err.message;
        throw new ConflictError(err.message, { chain: chain.name });
      }
      Object.assign(state, { indexer: freshIndexer(chain), scanned: 0, lastError: (err as Error).message.split('\n')[0] });
      if (attempt >= 2) throw new BadGatewayError('Chain indexer could not sync', { chain: chain.name, reason: state.lastError });
      ctx.log.warn({ chain: chain.name, reason: state.lastError }, 'wallet indexer resyncing from the deploy block');
    }
  }
  // Notes the tree does not hold, outside a rollback the indexer made itself: the chain they came
  // from is gone (e.g. a restarted devnet, its old snapshot discarded).
  if (!reorg && orphanedNotes(ctx, chain.name, state.indexer.tree).length > 0) throw markReset(ctx, chain, state, 'notes');
  if (reorg) {
    const kept = state.indexer.commitments.findIndex((c) => c.blockNumber >= reorg.from);
    state.scanned = Math.min(state.scanned, kept < 0 ? state.indexer.commitments.length : kept);
    ctx.log.warn({ chain: chain.name, fromBlock: String(reorg.from) }, 'chain reorganisation: index rolled back');
  }
  await applyIndex(ctx, chain, state, { reorg });
}

function markReset(ctx: Context, chain: ChainConfig, state: ChainState, reason: string): ConflictError {
  Object.assign(state, { reset: true, lastError: CHAIN_RESET_MESSAGE });
  ctx.log.warn({ chain: chain.name, reason }, 'chain reset detected: the wallet waits for a resync');
  return resetConflict(chain);
}

/** Stores what the synced index means for every entity, then the snapshot and the public accounts. */
async function applyIndex(ctx: Context, chain: ChainConfig, state: ChainState, options: { reorg: Reorganisation | null; afterReset?: boolean }): Promise<void> {
  const indexer = state.indexer;
  const fresh = indexer.commitments.slice(state.scanned);
  const wallets = listEntityWallets(ctx);
  const found = wallets.flatMap((w) => findOwnedNotes(w, fresh, chain).map((n) => ({ wallet: w, ...n })));
  // Failed rows too: a relay that timed out may still land, and a transfer a reorganisation undid
  // may be mined again — either is confirmed (and booked) when its outputs appear.
  const pending = ctx.db.select().from(walletActivity).where(and(eq(walletActivity.chain, chain.name), inArray(walletActivity.status, ['proved', 'submitted', 'failed']))).all().filter((r) => r.status !== 'failed' || r.commitments.length > 0);
  const outcomes = await failedSubmissions(chain, pending, indexer);
  const tokens = await resolveTokens(chain, [...found.map((f) => f.token), ...pending.map((p) => p.token as Address)]);

  write(ctx, (tx) => {
    if (options.reorg) undoOrphaned(ctx, tx, chain.name, indexer, options.reorg);
    for (const f of found) storeFoundNote(ctx, tx, chain, f, tokens);
    markSpentNotes(ctx, tx, chain, indexer.spentNullifiers);
    for (const row of pending) settleActivity(ctx, tx, chain, row, indexer, outcomes.get(row.id) ?? null, tokens);
    if (options.reorg) reverseDroppedReconciliations(ctx, chain.name, options.reorg.dropped);
  });
  saveSnapshot(ctx, chain, indexer);
  state.syncedBlock = indexer.lastBlock;
  await reconcilePublicAccounts(ctx, chain, indexer.lastBlock, { afterReset: options.afterReset, peerBlock: (name) => indexedBlockOf(ctx, name) }).catch((err: Error) => ctx.log.warn({ chain: chain.name, err: err.message }, 'public accounts not reconciled'));
  state.scanned = indexer.commitments.length;
  state.lastError = null;
  state.lastSyncAt = nowIso(ctx);
}

/**
 * Rebuilds the chain's index from the deploy block and every entity's notes from it, keeping
 * keys and history: after a reset, the notes from before are dropped, transfers still pending on
 * the old chain fail, and the books reverse what the reset undid. Serialised with the syncs.
 */
export function rebuildChain(ctx: Context, chain: ChainConfig, before: (wasReset: boolean) => Promise<void>): Promise<{ wasReset: boolean; indexedBlock: string }> {
  const state = chainState(ctx, chain);
  const run = state.queue.then(async () => {
    const wasReset = state.reset;
    await before(wasReset);
    const indexer = freshIndexer(chain);
    try {
      await indexer.sync();
    } catch (err) {
      if (err instanceof ChainIdMismatchError) throw new ConflictError(err.message, { chain: chain.name });
      throw new BadGatewayError('Chain indexer could not sync', { chain: chain.name, reason: (err as Error).message.split('\n')[0] });
    }
    const dropped = dropDerivedNotes(ctx, chain, wasReset);
    Object.assign(state, { indexer, scanned: 0, reset: false, lastError: null });
    await applyIndex(ctx, chain, state, { reorg: null, afterReset: wasReset });
    await reverseVanishedNotes(ctx, chain, dropped, indexer.genesisHash ?? 'unknown');
    return { wasReset, indexedBlock: indexer.height.toString() };
  });
  state.queue = run.catch(() => undefined);
  return run;
}

type StoredNote = typeof walletNotes.$inferSelect;

/** Deletes the chain's notes (they are found again from the new index); after a reset, pending transfers fail. */
function dropDerivedNotes(ctx: Context, chain: ChainConfig, wasReset: boolean): StoredNote[] {
  return write(ctx, (tx) => {
    const notes = tx.select().from(walletNotes).where(eq(walletNotes.chain, chain.name)).all();
    tx.delete(walletNotes).where(eq(walletNotes.chain, chain.name)).run();
    if (wasReset) {
      tx.update(walletActivity)
        .set({ status: 'failed', error: 'The chain was reset before it was confirmed', updatedAt: nowIso(ctx) })
        .where(and(eq(walletActivity.chain, chain.name), inArray(walletActivity.status, ['proved', 'submitted'])))
        .run();
    }
    return notes;
  });
}

/** Unspent notes that the rebuilt index no longer has: the books' Shielded funds lose them as a chain_reset. */
async function reverseVanishedNotes(ctx: Context, chain: ChainConfig, before: StoredNote[], genesis: string): Promise<void> {
  const now = new Set(ctx.db.select({ commitment: walletNotes.commitment }).from(walletNotes).where(eq(walletNotes.chain, chain.name)).all().map((n) => n.commitment));
  const lost = new Map<string, { entityId: string; token: string; amount: bigint }>();
  for (const n of before) {
    if (n.spentAt !== null || now.has(n.commitment)) continue;
    const key = `${n.entityId}|${n.token}`;
    const entry = lost.get(key) ?? { entityId: n.entityId, token: n.token, amount: 0n };
    entry.amount += BigInt(n.amount);
    lost.set(key, entry);
  }
  if (lost.size === 0) return;
  const tokens = await resolveTokens(chain, [...lost.values()].map((l) => l.token as Address)).catch(() => new Map<string, TokenInfo>());
  for (const { entityId, token, amount } of lost.values()) postChainReset(ctx, chain, entityId, tokens.get(token.toLowerCase()), amount, genesis);
}

function postChainReset(ctx: Context, chain: ChainConfig, entityId: string, info: TokenInfo | undefined, amount: bigint, genesis: string): void {
  const currency = info ? ledgerCurrency(info) : null;
  if (!currency || !info || info.decimals === null) {
    ctx.log.warn({ chain: chain.name, entityId }, 'vanished shielded notes not reversed in the books: token has no ledger currency');
    return;
  }
  try {
    postEvent(
      ctx,
      entityId,
      { type: 'chain_reset', payload: { account: ACC.shieldedFunds, currency, amount: formatAmount(amount.toString(), info.decimals), chain: chain.name }, idempotencyKey: `chain-reset:${chain.name}:${genesis}:${info.address.toLowerCase()}`, source: 'privacy' },
      { source: 'privacy' },
    );
  } catch (err) {
    ctx.log.warn({ entityId, chain: chain.name, err: (err as Error).message }, 'vanished shielded notes not reversed in the books');
  }
}

interface FoundOwnedNote {
  token: Address;
  amount: bigint;
  blinding: bigint;
  commitment: bigint;
  leafIndex: number;
  nullifier: bigint;
  txHash: Hex;
}

/** Notes of `fresh` that open with the wallet's viewing key, are owned by it, and re-hash to their commitment. */
function findOwnedNotes(wallet: EntityWallet, fresh: IndexedCommitment[], chain: ChainConfig): FoundOwnedNote[] {
  const out: FoundOwnedNote[] = [];
  for (const c of fresh) {
    const note = openNote(hexToBytes(c.encryptedNoteRecipient), wallet.keys.viewingPrivateKey, { commitment: c.commitment, chainId: BigInt(chain.chainId), pool: chain.pool });
    if (!note || note.pubkey !== wallet.keys.pubkey || note.amount === 0n) continue;
    out.push({
      token: toAddress(note.token),
      amount: note.amount,
      blinding: note.blinding,
      commitment: c.commitment,
      leafIndex: c.index,
      nullifier: computeNullifier(wallet.keys.spendingKey, c.commitment, c.index),
      txHash: c.transactionHash,
    });
  }
  return out;
}

export function toAddress(token: bigint): Address {
  return getAddress(`0x${token.toString(16).padStart(40, '0')}`);
}

async function resolveTokens(chain: ChainConfig, tokens: Address[]): Promise<Map<string, TokenInfo>> {
  const unique = [...new Set(tokens.map((t) => t.toLowerCase()))];
  const infos = await Promise.all(unique.map((t) => tokenInfo(chain, t as Address)));
  return new Map(infos.map((i) => [i.address.toLowerCase(), i]));
}

/** Submitted operations that the bundler reports as reverted. */
async function failedSubmissions(chain: ChainConfig, pending: ActivityRow[], indexer: PoolIndexer): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  for (const row of pending) {
    if (row.status !== 'submitted' || !row.userOpHash || isInTree(indexer, row.commitments[0])) continue;
    const outcome = await userOpOutcome(chain, row.userOpHash as Hex);
    if (outcome && !outcome.success) failed.set(row.id, outcome.reason ?? 'UserOperation reverted');
  }
  return failed;
}

function isInTree(indexer: PoolIndexer, commitment: string | undefined): boolean {
  return commitment !== undefined && indexer.tree.indexOf(BigInt(commitment)) >= 0;
}

function storeFoundNote(ctx: Context, tx: Tx, chain: ChainConfig, f: FoundOwnedNote & { wallet: EntityWallet }, tokens: Map<string, TokenInfo>): void {
  const commitment = toHex32(f.commitment);
  const inserted = tx
    .insert(walletNotes)
    .values({
      id: ctx.ids.next(),
      entityId: f.wallet.entityId,
      chain: chain.name,
      token: f.token,
      amount: f.amount.toString(),
      blinding: f.blinding.toString(),
      commitment,
      leafIndex: f.leafIndex,
      nullifier: toHex32(f.nullifier),
      txHash: f.txHash,
      spentAt: null,
      createdAt: nowIso(ctx),
    })
    .onConflictDoNothing()
    .run();
  if (inserted.changes === 0) return;
  // Our own outputs (shield notes, change) are not "received": they belong to an activity of ours.
  const own = tx.select({ commitments: walletActivity.commitments }).from(walletActivity).where(and(eq(walletActivity.entityId, f.wallet.entityId), eq(walletActivity.chain, chain.name))).all();
  if (own.some((a) => a.commitments.includes(commitment))) return;
  const row = insertActivity(ctx, tx, { entityId: f.wallet.entityId, chain: chain.name, kind: 'received', status: 'confirmed', token: f.token, amount: f.amount, txHash: f.txHash, commitments: [commitment] });
  recordTransferEvent(ctx, tx, row);
  announceReceived(ctx, tx, row, tokens.get(f.token.toLowerCase()) ?? null);
  postLedgerTransfer(ctx, tx, row, chain, tokens.get(f.token.toLowerCase()) ?? null);
}

function markSpentNotes(ctx: Context, tx: Tx, chain: ChainConfig, spent: Set<bigint>): void {
  const unspent = tx.select({ id: walletNotes.id, nullifier: walletNotes.nullifier }).from(walletNotes).where(and(eq(walletNotes.chain, chain.name), isNull(walletNotes.spentAt))).all();
  const now = nowIso(ctx);
  for (const n of unspent) {
    if (spent.has(BigInt(n.nullifier))) tx.update(walletNotes).set({ spentAt: now }).where(eq(walletNotes.id, n.id)).run();
  }
}

/** Confirms an activity once its outputs are in the tree; fails it when reverted or superseded. */
function settleActivity(ctx: Context, tx: Tx, chain: ChainConfig, seen: ActivityRow, indexer: PoolIndexer, failure: string | null, tokens: Map<string, TokenInfo>): void {
  // Re-read inside the transaction: a route may have moved it (submitted, failed) since the sync began.
  const row = tx.select().from(walletActivity).where(eq(walletActivity.id, seen.id)).get();
  if (!row || row.status === 'confirmed') return;
  const now = nowIso(ctx);
  const first = row.commitments[0];
  const index = first ? indexer.tree.indexOf(BigInt(first)) : -1;
  if (index >= 0) {
    const found = indexer.commitments[index];
    const txHash = found?.transactionHash ?? null;
    const updated = { ...row, status: 'confirmed' as const, txHash, error: null, updatedAt: now };
    tx.update(walletActivity).set({ status: 'confirmed', txHash, error: null, updatedAt: now }).where(eq(walletActivity.id, row.id)).run();
    recordTransferEvent(ctx, tx, updated);
    // Mined again after a reorganisation undid it: its first booking was reversed, so this one is
    // keyed by the block that holds it now (the books show it once, at the new block).
    const block = row.error === REORG_UNDONE ? indexer.blocks.find((b) => b.number === found?.blockNumber)?.hash ?? String(found?.blockNumber) : null;
    postLedgerTransfer(ctx, tx, updated, chain, tokens.get(row.token.toLowerCase()) ?? null, block);
    return;
  }
  if (row.status === 'failed') return;
  const superseded = row.nullifiers.length > 0 && row.nullifiers.some((n) => indexer.spentNullifiers.has(BigInt(n)));
  const expired = row.status === 'proved' && Date.parse(row.updatedAt) + (BUNDLE_LIFETIME_SECONDS + 60) * 1000 < ctx.clock.now().getTime();
  const error = failure ?? (superseded ? supersededReason(tx, row, indexer) : expired ? 'Expired before it was relayed' : null);
  if (error) tx.update(walletActivity).set({ status: 'failed', error, updatedAt: now }).where(eq(walletActivity.id, row.id)).run();
}

/** Whose transaction spent the notes: another attempt of ours at the same transfer (an older proof of it), or someone else's. */
function supersededReason(tx: Tx, row: ActivityRow, indexer: PoolIndexer): string {
  const same = row.nullifierKey ? tx.select().from(walletActivity).where(and(eq(walletActivity.entityId, row.entityId), eq(walletActivity.nullifierKey, row.nullifierKey))).all() : [];
  const ours = same.some((o) => o.id !== row.id && o.commitments[0] !== undefined && indexer.tree.indexOf(BigInt(o.commitments[0])) >= 0);
  return ours ? 'Replaced by a later attempt of the same transfer, which went through' : 'Its notes were spent by another transaction';
}
