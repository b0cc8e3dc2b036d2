// POST /api/privacy/initialize and GET /api/privacy/status.
import type { Context } from '../context.js';
import { chainRegistry, DEFAULT_CHAIN, publicChainView, type ChainConfig } from './chains.js';
import { findIdentity, initializeKeys, loadEntityWallet, walletKeysOpen } from './wallet-keys.js';
import { entityAccount, knownAccountAddress, knownRelayerAddress, relayerAccount } from './accounts.js';
import { peekChainState } from './chain-sync.js';
import { heldElsewhere } from './holder.js';
import { eq } from 'drizzle-orm';
import { walletKeys } from './tables.js';

/** Creates the entity's keys (idempotent) and its smart-account address on every configured chain. */
export async function initializePrivacy(ctx: Context, entityId: string) {
  const identity = initializeKeys(ctx, entityId);
  const wallet = loadEntityWallet(ctx, entityId);
  const accounts = await Promise.all(
    [...chainRegistry(ctx).chains.values()].map(async (chain) => {
      // The entity's relayer is set up alongside, so status can show (and someone fund) it.
      await accountAddressOrNull(ctx, chain, () => relayerAccount(ctx, chain, entityId));
      return { chain: chain.name, address: await accountAddressOrNull(ctx, chain, () => entityAccount(ctx, chain, wallet)) };
    }),
  );
  return {
    success: true as const,
    initialized: true as const,
    created: identity.created,
    shieldedAddress: identity.shieldedAddress,
    ownerAddress: identity.ownerAddress,
    accountAddress: accounts.find((a) => a.chain === DEFAULT_CHAIN)?.address ?? null,
    accounts,
  };
}

/** The address, or null when the chain's RPC cannot be reached right now (the address is computed again later). */
async function accountAddressOrNull(ctx: Context, chain: ChainConfig, load: () => Promise<{ address: string }>): Promise<string | null> {
  try {
    return (await load()).address;
  } catch (err) {
    ctx.log.warn({ chain: chain.name, err: (err as Error).message.split('\n')[0] }, 'smart-account address not available');
    return null;
  }
}

export function getPrivacyStatus(ctx: Context, entityId: string) {
  const identity = findIdentity(ctx, entityId);
  const registry = chainRegistry(ctx);
  const configured = [...registry.chains.values()].map((chain) => {
      const state = peekChainState(ctx, chain.name);
      const relayerAddress = identity ? knownRelayerAddress(ctx, entityId, chain.name) : null;
      return {
        ...chainView(chain),
        accountAddress: identity ? knownAccountAddress(ctx, entityId, chain.name) : null,
        relayerAddress,
        indexedBlock: state && state.indexer.height >= 0n ? state.indexer.height.toString() : null,
        leaves: state ? state.indexer.commitments.length : null,
        problem: state?.lastError ?? null,
        chainReset: state?.reset ?? false,
      };
    });
  const broken = registry.problems.map((p) => ({ ...emptyChain(p.name), problem: p.problem }));
  const chains = [...configured, ...broken];
  if (!chains.some((c) => c.chain === DEFAULT_CHAIN)) chains.push(emptyChain(DEFAULT_CHAIN));
  const elsewhere = identity ? null : heldElsewhere(ctx.db, entityId);
  const row = identity ? ctx.db.select().from(walletKeys).where(eq(walletKeys.entityId, entityId)).get() : undefined;
  return {
    initialized: identity !== null,
    heldElsewhere: elsewhere !== null,
    keysUnavailable: !!row && !walletKeysOpen(ctx, row),
    shieldedAddress: identity?.shieldedAddress ?? elsewhere?.shieldedAddress ?? null,
    ownerAddress: identity?.ownerAddress ?? elsewhere?.ownerAddress ?? null,
    defaultChain: DEFAULT_CHAIN,
    chains,
  };
}

function chainView(chain: ChainConfig) {
  const { name, ...view } = publicChainView(chain);
  return { chain: name, configured: true, ...view };
}

function emptyChain(name: string) {
  return {
    chain: name,
    configured: false,
    chainId: null,
    rpc: null,
    bundler: null,
    paymaster: null,
    entryPoint: null,
    pool: null,
    nativeSymbol: null,
    tokens: [],
    accountAddress: null,
    relayerAddress: null,
    indexedBlock: null,
    leaves: null,
    problem: 'Wallet infrastructure not configured',
    chainReset: false,
  };
}
