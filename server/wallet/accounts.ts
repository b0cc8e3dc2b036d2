// Smart accounts: the entity's SimpleAccount per chain (it shields and receives unshielded funds)
// and this install's relayer account per chain (it submits relayed bundles and pays their gas).
import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { SmartAccount } from 'viem/account-abstraction';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { ChainConfig } from './chains.js';
import { smartAccountFor } from './clients.js';
import { cachedPromise } from './promise-cache.js';
import { walletAccounts, walletRelayers } from './tables.js';
import type { EntityWallet } from './wallet-keys.js';

/** The entity's SimpleAccount on `chain`; its address is remembered on first use. */
export async function entityAccount(ctx: Context, chain: ChainConfig, wallet: EntityWallet): Promise<SmartAccount> {
  const account = await smartAccountFor(chain, wallet.ownerKey);
  ctx.db
    .insert(walletAccounts)
    .values({ entityId: wallet.entityId, chain: chain.name, address: account.address, createdAt: nowIso(ctx) })
    .onConflictDoUpdate({ target: [walletAccounts.entityId, walletAccounts.chain], set: { address: account.address } })
    .run();
  return account;
}

export function knownAccountAddress(ctx: Context, entityId: string, chain: string): string | null {
  return ctx.db.select({ address: walletAccounts.address }).from(walletAccounts).where(and(eq(walletAccounts.entityId, entityId), eq(walletAccounts.chain, chain))).get()?.address ?? null;
}

const relayerCache = new WeakMap<Context, Map<string, Promise<SmartAccount>>>();

/** The install's own relayer (for bundles proved elsewhere); an entity's relayer is keyed by its id. */
export const INSTALL_RELAYER = '';

/**
 * The entity's relayer account on `chain` (key created and sealed on first use): each business
 * has its own, so businesses of one install are not tied together on chain by who relays them.
 */
export function relayerAccount(ctx: Context, chain: ChainConfig, entityId: string): Promise<SmartAccount> {
  let perCtx = relayerCache.get(ctx);
  if (!perCtx) relayerCache.set(ctx, (perCtx = new Map()));
  return cachedPromise(perCtx, `${chain.name}|${chain.chainId}|${chain.entryPoint}|${entityId}`, () => loadRelayer(ctx, chain, entityId));
}

/** The stored relayer address of the entity on `chain`, without touching the chain. */
export function knownRelayerAddress(ctx: Context, entityId: string, chain: string): string | null {
  return ctx.db.select({ address: walletRelayers.accountAddress }).from(walletRelayers).where(and(eq(walletRelayers.chain, chain), eq(walletRelayers.entityId, entityId))).get()?.address ?? null;
}

async function loadRelayer(ctx: Context, chain: ChainConfig, entityId: string): Promise<SmartAccount> {
  const where = and(eq(walletRelayers.chain, chain.name), eq(walletRelayers.entityId, entityId));
  let row = ctx.db.select().from(walletRelayers).where(where).get();
  const ownerKey = row ? (ctx.secrets.open(row.ownerKeySealed).toString('utf8') as Hex) : generatePrivateKey();
  const account = await smartAccountFor(chain, ownerKey);
  if (!row) {
    row = { chain: chain.name, entityId, ownerKeySealed: ctx.secrets.seal(ownerKey), accountAddress: account.address, createdAt: nowIso(ctx) };
    ctx.db.insert(walletRelayers).values(row).onConflictDoNothing().run();
    const stored = ctx.db.select().from(walletRelayers).where(where).get()!;
    if (stored.ownerKeySealed !== row.ownerKeySealed) return smartAccountFor(chain, ctx.secrets.open(stored.ownerKeySealed).toString('utf8') as Hex);
  } else if (row.accountAddress !== account.address) {
    ctx.db.update(walletRelayers).set({ accountAddress: account.address }).where(where).run();
  }
  return account;
}
