// The entity's unspent notes of one token on one chain, minus those a submitted (not yet
// confirmed) spend already uses, and the selection of inputs for an amount.
import { and, eq, isNull } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Context } from '../context.js';
import { type OwnedNote, type ShieldedKeys, selectNotes, InsufficientBalanceError as LibInsufficient } from '../privacy/index.js';
import { walletActivity, walletNotes } from './tables.js';
import { InsufficientBalanceError } from './errors.js';
import { CHAIN_RESET_MESSAGE, peekChainState } from './chain-sync.js';
import { isNoteInTree } from './chain-reorg.js';

export const NOT_IN_TREE = "Not in the chain's tree: the chain no longer holds this note (resync the wallet)";

/**
 * Why a stored note cannot be spent now, or null: a note must sit in the indexed tree at its
 * index (its Merkle path and nullifier depend on it) — after a reset or a rollback it may not.
 */
export function unavailableReason(ctx: Context, chain: string, note: { commitment: string; leafIndex: number }): string | null {
  const state = peekChainState(ctx, chain);
  if (!state) return null;
  if (state.reset) return CHAIN_RESET_MESSAGE;
  return isNoteInTree(state.indexer.tree, note) ? null : NOT_IN_TREE;
}

/** Nullifiers of spends that were submitted but are not confirmed yet. */
export function reservedNullifiers(ctx: Context, entityId: string, chain: string): Set<string> {
  const rows = ctx.db
    .select({ nullifiers: walletActivity.nullifiers })
    .from(walletActivity)
    .where(and(eq(walletActivity.entityId, entityId), eq(walletActivity.chain, chain), eq(walletActivity.status, 'submitted')))
    .all();
  return new Set(rows.flatMap((r) => r.nullifiers.map((n) => n.toLowerCase())));
}

/** Unspent, not reserved, and in the indexed tree (the caller synced the chain first). */
export function spendableNotes(ctx: Context, entityId: string, chain: string, token: Address, keys: ShieldedKeys): OwnedNote[] {
  const reserved = reservedNullifiers(ctx, entityId, chain);
  const state = peekChainState(ctx, chain);
  return ctx.db
    .select()
    .from(walletNotes)
    .where(and(eq(walletNotes.entityId, entityId), eq(walletNotes.chain, chain), eq(walletNotes.token, token), isNull(walletNotes.spentAt)))
    .all()
    .filter((n) => !reserved.has(n.nullifier.toLowerCase()))
    .filter((n) => state !== undefined && !state.reset && isNoteInTree(state.indexer.tree, n))
    .map((n) => ({
      amount: BigInt(n.amount),
      pubkey: keys.pubkey,
      blinding: BigInt(n.blinding),
      token: BigInt(token),
      commitment: BigInt(n.commitment),
      leafIndex: n.leafIndex,
      nullifier: BigInt(n.nullifier),
    }));
}

/** Fails with `Insufficient shielded balance` unless at most two notes cover `amount`. */
export function assertCoverable(notes: OwnedNote[], amount: bigint): void {
  const available = notes.reduce((s, n) => s + n.amount, 0n);
  if (available < amount) throw new InsufficientBalanceError(available, amount);
  try {
    selectNotes(notes, amount);
  } catch (err) {
    // Enough in total, but not within the two notes one transaction can spend.
    if (err instanceof LibInsufficient) throw new InsufficientBalanceError(available, amount, 'A transaction spends at most two notes: send a smaller amount first, or move notes to yourself to merge them');
    throw err;
  }
}
