// Which relayer a bundle is built for. A linked entity (a row in sync_links) relays through its
// hosted instance by default: the bundle is proved on the hosted relayer's quote (its relayer,
// fee and deadline are bound by extDataHash) and submitted there — with plain requests that carry
// no device token or cookie, so the relay cannot tie it to the entity's sync identity. An
// unlinked entity, a token the hosted relay does not take fees in, or a hosted instance that
// relays nothing on this chain (503) use this install's own relayer.
import { z } from 'zod';
import type { Address, Hex } from 'viem';
import type { Context } from '../context.js';
import { BadGatewayError, HttpError } from '../http/errors.js';
import { entityLinks } from '../kernel/entity-links.js';
import type { ChainConfig } from './chains.js';
import { relayerAccount } from './accounts.js';
import { bundleDeadline } from './pool-tx.js';
import { isNative } from './amounts.js';
import type { RelayPayload } from './schemas.js';

const HOSTED_TIMEOUT_MS = 30_000;

export interface RelayChoice {
  via: 'hosted' | 'own';
  relayer: Address;
  fee: bigint;
  deadline: bigint;
  /** The hosted quote's expiry and signature, which the bundle carries to the relay. */
  quote?: { expiresAt: string; signature: Hex };
}

/** A quote as the hosted relay gives it; checked, since its relayer and fee go into the proof. */
const hostedQuote = z.object({
  chain: z.string(),
  chainId: z.number().int(),
  pool: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  token: z.string(),
  relayer: z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((a) => a as Address),
  fee: z.string().regex(/^\d{1,78}$/),
  deadline: z.string().regex(/^\d{1,20}$/),
  expiresAt: z.string(),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/).transform((s) => s as Hex),
});
type HostedQuote = z.output<typeof hostedQuote>;

/** The hosted instance an entity is linked to, or null. */
export function linkedHostedUrl(ctx: Context, entityId: string): string | null {
  return entityLinks().linkOf(ctx.db, entityId)?.hostedUrl.replace(/\/+$/, '') ?? null;
}

export async function chooseRelay(ctx: Context, entityId: string, chain: ChainConfig, token: Address): Promise<RelayChoice> {
  const url = linkedHostedUrl(ctx, entityId);
  const quote = url && isNative(token) ? await fetchQuote(url, chain) : null;
  if (!quote) return { via: 'own', relayer: (await relayerAccount(ctx, chain, entityId)).address, fee: 0n, deadline: bundleDeadline(ctx) };
  return { via: 'hosted', relayer: quote.relayer, fee: BigInt(quote.fee), deadline: BigInt(quote.deadline), quote: { expiresAt: quote.expiresAt, signature: quote.signature } };
}

/** The hosted relay's quote for native-coin bundles on `chain`; null when it relays nothing there. */
async function fetchQuote(url: string, chain: ChainConfig): Promise<HostedQuote | null> {
  const res = await callHosted(`${url}/api/relay/quote?chain=${encodeURIComponent(chain.name)}`);
  if (res.status === 503) return null;
  const parsed = hostedQuote.safeParse(await readAnswer(res));
  if (!parsed.success) throw new BadGatewayError('The hosted relay gave a malformed quote', { chain: chain.name });
  const quote = parsed.data;
  // A quote for another deployment would make a proof the pool refuses (extDataHash binds chain id and pool).
  if (quote.chainId !== chain.chainId || quote.pool.toLowerCase() !== chain.pool.toLowerCase()) {
    throw new BadGatewayError('The hosted relay serves another deployment of this chain', { chain: chain.name });
  }
  return quote;
}

export interface HostedRelayAnswer {
  userOpHash: Hex;
  replayed: boolean;
  jobId: string;
  relayer: Address;
  fee: string;
}

export async function submitToHosted(url: string, payload: RelayPayload): Promise<HostedRelayAnswer> {
  const res = await callHosted(`${url}/api/relay/transfer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  return (await readAnswer(res)) as HostedRelayAnswer;
}

export async function readHostedJob(url: string, jobId: string): Promise<unknown> {
  return readAnswer(await callHosted(`${url}/api/relay/jobs/${encodeURIComponent(jobId)}`));
}

/** A plain request: no device token, no cookie, no redirects. */
async function callHosted(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, credentials: 'omit', redirect: 'error', signal: AbortSignal.timeout(HOSTED_TIMEOUT_MS) });
  } catch (err) {
    throw new BadGatewayError('Hosted relay unreachable', { reason: (err as Error).message.split('\n')[0].slice(0, 200) });
  }
}

/** The hosted relay's answer, or its refusal as the same `{error}` with the same status. */
async function readAnswer(res: Response): Promise<unknown> {
  const body = (await res.json().catch(() => null)) as { error?: unknown; details?: unknown } | null;
  if (res.ok && body) return body;
  if (typeof body?.error === 'string') {
    const retryAfter = res.headers.get('retry-after');
    throw new HttpError(res.status, body.error, body.details, retryAfter ? { 'Retry-After': retryAfter } : {});
  }
  throw new BadGatewayError('Hosted relay unreachable', { reason: `HTTP ${res.status}` });
}
