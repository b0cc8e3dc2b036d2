// Per configured chain: the pool indexer (from the privacy library) and what its findings mean
// for each entity — owned notes, spent notes, confirmed or failed activities, received funds —
// written in one transaction per sync together with their domain events, notifications and
// ledger events.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { getAddress, hexToBytes, type Address, type Hex } from 'viem';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Db } from '../db/open.js';
import { BadGatewayError } from '../http/errors.js';
import { PoolIndexer, type IndexedCommitment } from '../privacy/indexer.js';
import { openNote } from '../privacy/encryption.js';
import { computeNullifier } from '../privacy/note.js';
import { toHex32 } from '../privacy/field.js';
import type { ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { listEntityWallets, type EntityWallet } from './wallet-keys.js';
import { walletActivity, walletIndexerSnapshots, walletNotes } from './tables.js';
import { BUNDLE_LIFETIME_SECONDS, insertActivity, recordTransferEvent, type ActivityRow } from './activity.js';
import { userOpOutcome } from './bundler.js';
import { tokenInfo, type TokenInfo } from './tokens.js';
import { announceReceived, postLedgerTransfer } from './side-effects.js';
import { reconcilePublicAccounts } from './public-reconcile.js';

export interface ChainState {
  key: string;
  indexer: PoolIndexer;
  /** Commitments already trial-decrypted for every entity. */
  scanned: number;
  queue: Promise<unknown>;
  lastError: string | null;
  lastSyncAt: string | null;
}

const states = new WeakMap<Context, Map<string, ChainState>>();

function stateKey(chain: ChainConfig): string {
  return `${chain.chainId}|${chain.pool}|${chain.rpcUrl}`;
}

function freshIndexer(chain: ChainConfig): PoolIndexer {
  return new PoolIndexer({ client: publicClientFor(chain), chainId: BigInt(chain.chainId), pool: chain.pool, fromBlock: BigInt(chain.poolDeployBlock) });
}

/** Resumes from the stored snapshot when it belongs to this configuration (its root is checked on the next sync). */
function restoredIndexer(ctx: Context, chain: ChainConfig): PoolIndexer {
  const row = ctx.db.select().from(walletIndexerSnapshots).where(eq(walletIndexerSnapshots.chain, chain.name)).get();
  if (!row || row.stateKey !== stateKey(chain)) return freshIndexer(chain);
  try {
    return PoolIndexer.restore({ client: publicClientFor(chain), chainId: BigInt(chain.chainId), pool: chain.pool }, row.snapshot);
  } catch (err) {
    ctx.log.warn({ chain: chain.name, reason: (err as Error).message }, 'wallet indexer snapshot discarded');
    return freshIndexer(chain);
  }
}

/** Stores the indexer's state when it learned something new. */
function saveSnapshot(ctx: Context, chain: ChainConfig, indexer: PoolIndexer): void {
  const leaves = indexer.commitments.length;
  const nullifiers = indexer.spentNullifiers.size;
  const row = ctx.db.select({ leaves: walletIndexerSnapshots.leaves, nullifiers: walletIndexerSnapshots.nullifiers, stateKey: walletIndexerSnapshots.stateKey }).from(walletIndexerSnapshots).where(eq(walletIndexerSnapshots.chain, chain.name)).get();
  if (row && row.stateKey === stateKey(chain) && row.leaves === leaves && row.nullifiers === nullifiers) return;
  const values = { chain: chain.name, stateKey: stateKey(chain), snapshot: indexer.snapshot(), leaves, nullifiers, updatedAt: nowIso(ctx) };
  ctx.db.insert(walletIndexerSnapshots).values(values).onConflictDoUpdate({ target: walletIndexerSnapshots.chain, set: values }).run();
}

function newState(ctx: Context, chain: ChainConfig): ChainState {
  return { key: stateKey(chain), indexer: restoredIndexer(ctx, chain), scanned: 0, queue: Promise.resolve(), lastError: null, lastSyncAt: null };
}

export function peekChainState(ctx: Context, chainName: string): ChainState | undefined {
  return states.get(ctx)?.get(chainName);
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
  // A failed sync leaves the mirror half-applied: start over from the deploy block. One immediate
  // retry absorbs a node that answered the block number before its logs (seen under load).
  for (let attempt = 1; ; attempt++) {
    try {
      await state.indexer.sync();
      break;
    } catch (err) {
      Object.assign(state, { indexer: freshIndexer(chain), scanned: 0, lastError: (err as Error).message.split('\n')[0] });
      if (attempt >= 2) throw new BadGatewayError('Chain indexer could not sync', { chain: chain.name, reason: state.lastError });
      ctx.log.warn({ chain: chain.name, reason: state.lastError }, 'wallet indexer resyncing from the deploy block');
    }
  }
  const indexer = state.indexer;
  const fresh = indexer.commitments.slice(state.scanned);
  const wallets = listEntityWallets(ctx);
  const found = wallets.flatMap((w) => findOwnedNotes(w, fresh, chain).map((n) => ({ wallet: w, ...n })));
  const pending = ctx.db.select().from(walletActivity).where(and(eq(walletActivity.chain, chain.name), inArray(walletActivity.status, ['proved', 'submitted']))).all();
  const outcomes = await failedSubmissions(chain, pending, indexer);
  const tokens = await resolveTokens(chain, [...found.map((f) => f.token), ...pending.map((p) => p.token as Address)]);

  ctx.db.transaction((txn) => {
    const tx = txn as unknown as Db;
    for (const f of found) storeFoundNote(ctx, tx, chain, f, tokens);
    markSpentNotes(ctx, tx, chain, indexer.spentNullifiers);
    for (const row of pending) settleActivity(ctx, tx, chain, row, indexer, outcomes.get(row.id) ?? null, tokens);
  });
  saveSnapshot(ctx, chain, indexer);
  await reconcilePublicAccounts(ctx, chain, indexer.height).catch((err: Error) => ctx.log.warn({ chain: chain.name, err: err.message }, 'public accounts not reconciled'));
  state.scanned = indexer.commitments.length;
  state.lastError = null;
  state.lastSyncAt = nowIso(ctx);
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

function storeFoundNote(ctx: Context, tx: Db, chain: ChainConfig, f: FoundOwnedNote & { wallet: EntityWallet }, tokens: Map<string, TokenInfo>): void {
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

function markSpentNotes(ctx: Context, tx: Db, chain: ChainConfig, spent: Set<bigint>): void {
  const unspent = tx.select({ id: walletNotes.id, nullifier: walletNotes.nullifier }).from(walletNotes).where(and(eq(walletNotes.chain, chain.name), isNull(walletNotes.spentAt))).all();
  const now = nowIso(ctx);
  for (const n of unspent) {
    if (spent.has(BigInt(n.nullifier))) tx.update(walletNotes).set({ spentAt: now }).where(eq(walletNotes.id, n.id)).run();
  }
}

/** Confirms an activity once its outputs are in the tree; fails it when reverted or superseded. */
function settleActivity(ctx: Context, tx: Db, chain: ChainConfig, seen: ActivityRow, indexer: PoolIndexer, failure: string | null, tokens: Map<string, TokenInfo>): void {
  // Re-read inside the transaction: a route may have moved it (submitted, failed) since the sync began.
  const row = tx.select().from(walletActivity).where(eq(walletActivity.id, seen.id)).get();
  if (!row || (row.status !== 'proved' && row.status !== 'submitted')) return;
  const now = nowIso(ctx);
  const first = row.commitments[0];
  const index = first ? indexer.tree.indexOf(BigInt(first)) : -1;
  if (index >= 0) {
    const txHash = indexer.commitments[index]?.transactionHash ?? null;
    const updated = { ...row, status: 'confirmed' as const, txHash, updatedAt: now };
    tx.update(walletActivity).set({ status: 'confirmed', txHash, updatedAt: now }).where(eq(walletActivity.id, row.id)).run();
    recordTransferEvent(ctx, tx, updated);
    postLedgerTransfer(ctx, tx, updated, chain, tokens.get(row.token.toLowerCase()) ?? null);
    return;
  }
  const superseded = row.nullifiers.length > 0 && row.nullifiers.some((n) => indexer.spentNullifiers.has(BigInt(n)));
  const expired = row.status === 'proved' && Date.parse(row.createdAt) + (BUNDLE_LIFETIME_SECONDS + 60) * 1000 < ctx.clock.now().getTime();
  const error = failure ?? (superseded ? 'Its notes were spent by another transaction' : expired ? 'Expired before it was relayed' : null);
  if (error) tx.update(walletActivity).set({ status: 'failed', error, updatedAt: now }).where(eq(walletActivity.id, row.id)).run();
}
