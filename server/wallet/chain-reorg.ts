// What a chain reorganisation undoes in the wallet and the books: notes whose commitment the
// surviving chain does not hold are dropped, spends it does not hold are unspent, activities
// confirmed in dropped blocks fail (their ledger events reversed), and the public account's
// reconciliations at dropped blocks are reversed — so the wallet equals one that only saw the
// surviving chain.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import { eventIdOf, reverseEvent } from '../ledger/index.js';
import type { PoolIndexer, Reorganisation, MerkleTree } from '../privacy/index.js';
import { listEntityWallets } from './wallet-keys.js';
import { walletActivity, walletNotes } from './tables.js';

export const REORG_UNDONE = 'Undone by a chain reorganisation';

/** A note the tree holds exactly where it was found (its nullifier depends on that index). */
export function isNoteInTree(tree: MerkleTree, note: { commitment: string; leafIndex: number }): boolean {
  return tree.leaves()[note.leafIndex] === BigInt(note.commitment);
}

/** Stored notes of the chain (any entity) that the indexed tree does not hold. */
export function orphanedNotes(ctx: Context, chain: string, tree: MerkleTree): { id: string; commitment: string; leafIndex: number }[] {
  return ctx.db
    .select({ id: walletNotes.id, commitment: walletNotes.commitment, leafIndex: walletNotes.leafIndex })
    .from(walletNotes)
    .where(eq(walletNotes.chain, chain))
    .all()
    .filter((n) => !isNoteInTree(tree, n));
}

/** Reverses a posted ledger event by its idempotency key; a missing or already reversed one is left as is. */
export function reverseByKey(ctx: Context, entityId: string, idempotencyKey: string, reason: string): void {
  try {
    reverseEvent(ctx, entityId, eventIdOf(entityId, idempotencyKey), reason);
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status !== 404 && status !== 409) throw err;
  }
}

/** In the sync's transaction, after the indexer rolled back and re-indexed. */
export function undoOrphaned(ctx: Context, tx: Tx, chain: string, indexer: PoolIndexer, reorg: Reorganisation): void {
  const now = nowIso(ctx);
  for (const note of orphanedNotes(ctx, chain, indexer.tree)) tx.delete(walletNotes).where(eq(walletNotes.id, note.id)).run();
  const spent = tx.select({ id: walletNotes.id, nullifier: walletNotes.nullifier }).from(walletNotes).where(and(eq(walletNotes.chain, chain), isNotNull(walletNotes.spentAt))).all();
  for (const n of spent) {
    if (!indexer.spentNullifiers.has(BigInt(n.nullifier))) tx.update(walletNotes).set({ spentAt: null }).where(eq(walletNotes.id, n.id)).run();
  }
  // An activity confirmed in a dropped block: one of its outputs or spends is gone from the surviving chain.
  const goneCommitments = new Set(reorg.droppedCommitments.filter((c) => indexer.tree.indexOf(c) < 0));
  const goneNullifiers = new Set(reorg.droppedNullifiers.filter((n) => !indexer.spentNullifiers.has(n)));
  const confirmed = tx.select().from(walletActivity).where(and(eq(walletActivity.chain, chain), eq(walletActivity.status, 'confirmed'))).all();
  for (const row of confirmed) {
    const undone = row.commitments.some((c) => goneCommitments.has(BigInt(c))) || row.nullifiers.some((n) => goneNullifiers.has(BigInt(n)));
    if (!undone) continue;
    tx.update(walletActivity).set({ status: 'failed', error: REORG_UNDONE, updatedAt: now }).where(eq(walletActivity.id, row.id)).run();
    // Its first booking, or the one made when a block (now dropped) mined it again.
    reverseByKey(ctx, row.entityId, `wallet-activity:${row.id}`, REORG_UNDONE);
    for (const hash of reorg.dropped) reverseByKey(ctx, row.entityId, `wallet-activity:${row.id}:${hash}`, REORG_UNDONE);
  }
}

/** The public account's reconciliations read at blocks the chain no longer has. */
export function reverseDroppedReconciliations(ctx: Context, chain: string, droppedHashes: string[]): void {
  for (const wallet of listEntityWallets(ctx)) {
    for (const hash of droppedHashes) {
      reverseByKey(ctx, wallet.entityId, reconcileKey(chain, hash), REORG_UNDONE);
      reverseByKey(ctx, wallet.entityId, relayerReconcileKey(chain, hash), REORG_UNDONE);
    }
  }
}

/** The relayer account's reconciliation at a block (its own key: both may post at one block). */
export function relayerReconcileKey(chain: string, blockHash: string): string {
  return `relayer-reconcile:${chain}:${blockHash}`;
}

/** Names the block by hash: a new chain behind the same name never repeats an old key. */
export function reconcileKey(chain: string, blockHash: string): string {
  return `public-reconcile:${chain}:${blockHash}`;
}
