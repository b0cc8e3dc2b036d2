// GET /api/privacy/balance, /notes and /history: read from the entity's notes and activity after
// bringing the chain's index up to date.
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { requireChain, type ChainConfig } from './chains.js';
import { loadEntityWallet } from './wallet-keys.js';
import { syncChain } from './chain-sync.js';
import { reservedNullifiers, unavailableReason } from './spendable.js';
import { tokenInfo } from './tokens.js';
import { parseToken } from './amounts.js';
import { presentActivity, type ActivityKind } from './activity.js';
import { heldElsewhere } from './holder.js';
import { walletActivity, walletBundles, walletNotes } from './tables.js';
import { retryableFailure, STUCK_PROVED_MS } from './retry-rules.js';
import type { ActivityRow } from './activity.js';
import type { Address } from 'viem';

/** Syncs before reading; a chain that cannot be reached still answers from what is stored. */
async function freshen(ctx: Context, chain: ChainConfig): Promise<void> {
  try {
    await syncChain(ctx, chain);
  } catch (err) {
    ctx.log.warn({ chain: chain.name, err: (err as Error).message }, 'wallet sync failed; answering from stored notes');
  }
}

export async function getShieldedBalance(ctx: Context, entityId: string, input: { chain?: string; token?: string }) {
  loadEntityWallet(ctx, entityId);
  const chain = requireChain(ctx, input.chain);
  const only = input.token !== undefined ? parseToken(input.token) : null;
  await freshen(ctx, chain);
  const reserved = reservedNullifiers(ctx, entityId, chain.name);
  const notes = ctx.db
    .select()
    .from(walletNotes)
    .where(and(eq(walletNotes.entityId, entityId), eq(walletNotes.chain, chain.name), isNull(walletNotes.spentAt), only ? eq(walletNotes.token, only) : undefined))
    .all();
  const tokens = new Set<string>([...(only ? [only] : ['0x0000000000000000000000000000000000000000', ...chain.tokens.map((t) => t.address)]), ...notes.map((n) => n.token)]);
  const balances = await Promise.all(
    [...tokens].map(async (token) => {
      const all = notes.filter((n) => n.token === token);
      // A note the chain's tree does not hold is shown apart, with why, and never spent.
      const reasons = all.map((n) => unavailableReason(ctx, chain.name, n));
      const unavailable = all.filter((_, i) => reasons[i] !== null);
      const mine = all.filter((_, i) => reasons[i] === null);
      const free = mine.filter((n) => !reserved.has(n.nullifier.toLowerCase()));
      const sum = (list: typeof mine) => list.reduce((s, n) => s + BigInt(n.amount), 0n);
      const info = await tokenInfo(chain, token as Address).catch(() => ({ symbol: null, decimals: null }));
      return {
        token,
        symbol: info.symbol,
        decimals: info.decimals,
        amount: sum(free).toString(),
        notes: free.length,
        pending: (sum(mine) - sum(free)).toString(),
        unavailable: sum(unavailable).toString(),
        unavailableReason: reasons.find((r) => r !== null) ?? null,
      };
    }),
  );
  return { chain: chain.name, balances };
}

export async function listShieldedNotes(ctx: Context, entityId: string, input: { chain?: string; token?: string; includeSpent: 'true' | 'false' }) {
  loadEntityWallet(ctx, entityId);
  const chain = requireChain(ctx, input.chain);
  const token = input.token !== undefined ? parseToken(input.token) : null;
  await freshen(ctx, chain);
  const filters: (SQL | undefined)[] = [eq(walletNotes.entityId, entityId), eq(walletNotes.chain, chain.name), token ? eq(walletNotes.token, token) : undefined, input.includeSpent === 'true' ? undefined : isNull(walletNotes.spentAt)];
  const rows = ctx.db.select().from(walletNotes).where(and(...filters)).orderBy(desc(walletNotes.leafIndex)).all();
  return {
    notes: rows.map((n) => ({ id: n.id, chain: n.chain, token: n.token, amount: n.amount, commitment: n.commitment, leafIndex: n.leafIndex, txHash: n.txHash, spent: n.spentAt !== null, createdAt: n.createdAt })),
  };
}

/** The history; on a device without the keys, the holder's history as synced (read-only). */
export function listShieldedHistory(ctx: Context, entityId: string, input: { chain?: string; kind?: ActivityKind; limit: number }) {
  const holdsKeys = !heldElsewhere(ctx.db, entityId);
  if (holdsKeys) loadEntityWallet(ctx, entityId);
  const rows = ctx.db
    .select()
    .from(walletActivity)
    .where(and(eq(walletActivity.entityId, entityId), input.chain ? eq(walletActivity.chain, input.chain) : undefined, input.kind ? eq(walletActivity.kind, input.kind) : undefined))
    .orderBy(desc(walletActivity.createdAt), desc(walletActivity.id))
    .limit(input.limit)
    .all();
  const bundles = new Map(
    ctx.db
      .select({ activityId: walletBundles.activityId, relayError: walletBundles.relayError })
      .from(walletBundles)
      .where(eq(walletBundles.entityId, entityId))
      .all()
      .map((b) => [b.activityId, b.relayError]),
  );
  const now = ctx.clock.now().getTime();
  return {
    items: rows.map((row) => {
      const relayError = bundles.get(row.id) ?? null;
      return { ...presentActivity(row), relayError, canRetry: holdsKeys && canRetry(row, relayError, now) };
    }),
  };
}

/** A send or unshield whose relay failed or never happened: Try again relays the same proof or proves it again. */
function canRetry(row: ActivityRow, relayError: string | null, now: number): boolean {
  if (row.kind !== 'sent' && row.kind !== 'unshielded') return false;
  if (row.status === 'proved') return relayError !== null || Date.parse(row.updatedAt) + STUCK_PROVED_MS < now;
  return row.status === 'failed' && retryableFailure(row.error);
}
