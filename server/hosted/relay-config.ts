// The hosted relay's configuration: chains as the desktop takes them (`chains` inline, merged over
// the JSON file `chainsFile`, validated by `server/wallet/chains.ts`) and the relayer key file.
// Without any chain the relay routes answer 503 `Wallet infrastructure not configured`.
import path from 'node:path';
import type { Logger } from 'pino';
import { checkChainsFile, DEFAULT_CHAIN, loadChains, NOT_CONFIGURED, type ChainConfig } from '../wallet/index.js';
import { ServiceUnavailableError } from '../http/errors.js';
import { openRelayer, type HostedRelayer } from './relayer.js';

export interface HostedRelayOptions {
  /** Chains by name, as the desktop's `config.chains`. */
  chains?: Record<string, Record<string, unknown>>;
  /** JSON file of chains by name (what `npm run devnet` writes), under `chains`. */
  chainsFile?: string;
  /** The relayer's owner key (0600); default `<dataDir>/relayer.key`, created on first start. */
  relayerKeyFile?: string;
  /**
   * Gas units a relayed `transact` UserOperation may take at most (its gas limits summed): quotes
   * charge this at the current gas price plus a margin. Measured on the devnet: see relay-fees.ts.
   */
  relayGas?: number;
}

export interface HostedRelay {
  chains: Map<string, ChainConfig>;
  relayer: HostedRelayer;
  relayGas: bigint;
}

/**
 * Gas limits of a relayed transfer, summed, as the bundler sets them: 1.24M measured on the devnet
 * (call 0.88M, verification 0.29M, pre-verification 0.07M). The rest is room for the gas price to
 * rise between quote and relay (the fee must cover the limits at the price of that moment).
 */
export const DEFAULT_RELAY_GAS = 1_500_000;

/** The relay, or null when no chain is configured (a file that is named but broken stops the start). */
export async function openHostedRelay(opts: HostedRelayOptions & { dataDir: string }, log: Logger): Promise<HostedRelay | null> {
  if (opts.chainsFile) {
    const problem = checkChainsFile(opts.chainsFile);
    if (problem) throw new Error(problem);
  }
  const registry = loadChains({ chains: opts.chains ?? {}, chainsFile: opts.chainsFile });
  for (const p of registry.problems) log.warn({ chain: p.name, problem: p.problem }, 'relay chain configuration ignored');
  if (registry.chains.size === 0) return null;
  const keyFile = opts.relayerKeyFile ?? path.join(opts.dataDir, 'relayer.key');
  const relayer = await openRelayer(keyFile);
  // The owner's address and where its key is, never the key.
  log.info({ chains: [...registry.chains.keys()], signer: relayer.signer, keyFile }, 'relay ready');
  return { chains: registry.chains, relayer, relayGas: BigInt(opts.relayGas ?? DEFAULT_RELAY_GAS) };
}

/** The relay and the chain a request names (default `base-sepolia`), or 503. */
export function requireRelayChain(relay: HostedRelay | null | undefined, name: string | undefined): { relay: HostedRelay; chain: ChainConfig } {
  const chain = relay?.chains.get(name ?? DEFAULT_CHAIN);
  if (!relay || !chain) throw new ServiceUnavailableError(NOT_CONFIGURED);
  return { relay, chain };
}
