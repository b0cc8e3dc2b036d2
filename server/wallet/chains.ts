// Chain configuration of the wallet: one entry per chain name (`base-sepolia` is the default,
// `local` is what `npm run devnet` prints). Entries come from `config.chains` and, merged under
// it, the JSON file named by `config.chainsFile`. Each entry is validated on its own: a broken
// entry makes that chain "not configured" (503) instead of stopping the server.
import fs from 'node:fs';
import type { Address } from 'viem';
import { z } from 'zod';
import type { Context } from '../context.js';
import { ServiceUnavailableError } from '../http/errors.js';
import { checksumAddress, isHexAddress } from './address.js';

export const DEFAULT_CHAIN = 'base-sepolia';
export const NOT_CONFIGURED = 'Wallet infrastructure not configured';

const address = z
  .string()
  .refine((v) => isHexAddress(v), 'must be a 0x-prefixed 20-byte address')
  .transform((v) => checksumAddress(v));

const httpUrl = z.url({ protocol: /^https?$/ });

const tokenSchema = z.object({
  address,
  symbol: z.string().min(1).max(12).optional(),
  decimals: z.coerce.number().int().min(0).max(36).optional(),
});

export const chainConfigSchema = z.object({
  chainId: z.coerce.number().int().positive(),
  rpcUrl: httpUrl,
  bundlerUrl: httpUrl,
  paymasterUrl: httpUrl.optional(),
  entryPoint: address,
  pool: address,
  /** SimpleAccountFactory for EntryPoint v0.8; permissionless' canonical address when absent. */
  accountFactory: address.optional(),
  /** Block the pool was deployed in: the indexer starts scanning there. */
  poolDeployBlock: z.coerce.number().int().min(0).default(0),
  /** The devnet prints its test token as `token` (and in `tokens` by symbol). */
  token: address.optional(),
  /** Known tokens: `{ SYMBOL: address }` (as the devnet prints) or `[{ address, symbol?, decimals? }]`. */
  tokens: z
    .union([z.record(z.string().min(1).max(12), address).transform((r) => Object.entries(r).map(([symbol, a]) => ({ address: a, symbol }))), z.array(tokenSchema)])
    .default([]),
  nativeSymbol: z.string().min(1).max(12).default('ETH'),
});

/** One chain as a chains file (or `npm run devnet`) writes it, before defaults and coercion. */
export type ChainsFileEntry = Omit<z.input<typeof chainConfigSchema>, 'chainId' | 'poolDeployBlock'> & { chainId: number; poolDeployBlock: number };
export type TokenConfig = z.output<typeof tokenSchema>;
export type ChainConfig = Omit<z.output<typeof chainConfigSchema>, 'token' | 'tokens'> & { name: string; tokens: TokenConfig[] };

export interface ChainProblem {
  name: string;
  problem: string;
}

export interface ChainRegistry {
  /** Valid chains by name. */
  chains: Map<string, ChainConfig>;
  /** Entries that were given but are invalid (messages never contain the URLs). */
  problems: ChainProblem[];
}

function readChainsFile(file: string | undefined): { entries: Record<string, unknown>; problem?: string } {
  if (!file) return { entries: {} };
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { entries: {}, problem: 'chainsFile must hold a JSON object of chains by name' };
    return { entries: parsed as Record<string, unknown> };
  } catch (err) {
    return { entries: {}, problem: `chainsFile could not be read: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * What is wrong with a chains file given at start (it does not parse, or an entry is invalid), or
 * null. A file someone named on purpose stops the server with this message rather than leaving
 * the wallet quietly "not configured" (inline `config.chains` entries stay tolerant: status shows them).
 */
export function checkChainsFile(file: string): string | null {
  const read = readChainsFile(file);
  if (read.problem) return `${read.problem} (${file})`;
  if (Object.keys(read.entries).length === 0) return `chainsFile ${file} names no chains`;
  for (const [name, entry] of Object.entries(read.entries)) {
    const parsed = chainConfigSchema.safeParse(entry);
    if (!parsed.success) return `chainsFile ${file}: chain "${name}" is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ')}`;
  }
  return null;
}

/** Validates every configured chain; the file's entries sit under `config.chains`' entries. */
export function loadChains(config: Pick<Context['config'], 'chains' | 'chainsFile'>): ChainRegistry {
  const file = readChainsFile(config.chainsFile);
  const merged: Record<string, unknown> = { ...file.entries };
  for (const [name, entry] of Object.entries(config.chains)) {
    const under = merged[name];
    merged[name] = typeof under === 'object' && under !== null ? { ...(under as object), ...entry } : entry;
  }
  const chains = new Map<string, ChainConfig>();
  const problems: ChainProblem[] = file.problem ? [{ name: '(chainsFile)', problem: file.problem }] : [];
  for (const [name, entry] of Object.entries(merged)) {
    const parsed = chainConfigSchema.safeParse(entry);
    if (!parsed.success) {
      problems.push({ name, problem: parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ') });
      continue;
    }
    const { token, tokens, ...rest } = parsed.data;
    const listed: TokenConfig[] = tokens;
    const all = token && !listed.some((t) => t.address === token) ? [...listed, { address: token }] : listed;
    chains.set(name, { ...rest, tokens: all, name });
  }
  return { chains, problems };
}

const registries = new WeakMap<Context, ChainRegistry>();

/** The chain registry of this server, read once from its configuration. */
export function chainRegistry(ctx: Context): ChainRegistry {
  let reg = registries.get(ctx);
  if (!reg) {
    reg = loadChains(ctx.config);
    registries.set(ctx, reg);
    for (const p of reg.problems) ctx.log.warn({ chain: p.name, problem: p.problem }, 'wallet chain configuration ignored');
  }
  return reg;
}

/** The chain a request names (default `base-sepolia`), or 503 when it has no valid configuration. */
export function requireChain(ctx: Context, name: string | undefined): ChainConfig {
  const chain = chainRegistry(ctx).chains.get(name ?? DEFAULT_CHAIN);
  if (!chain) throw new ServiceUnavailableError(NOT_CONFIGURED);
  return chain;
}

/** A URL as shown to users: scheme and host only, since paths and queries often carry API keys. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Chain configuration without secrets, for status. */
export function publicChainView(chain: ChainConfig) {
  return {
    name: chain.name,
    chainId: chain.chainId,
    rpc: redactUrl(chain.rpcUrl),
    bundler: redactUrl(chain.bundlerUrl),
    paymaster: chain.paymasterUrl ? redactUrl(chain.paymasterUrl) : null,
    entryPoint: chain.entryPoint as string,
    pool: chain.pool as string,
    nativeSymbol: chain.nativeSymbol,
    tokens: chain.tokens.map((t) => ({ address: t.address as string, symbol: t.symbol ?? null, decimals: t.decimals ?? null })),
  };
}

export type PublicChainView = ReturnType<typeof publicChainView>;
export type { Address };
