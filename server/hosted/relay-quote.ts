// Relay quotes: what the hosted relayer charges to submit one bundle on a chain, signed by the
// relayer (EIP-712, its owner key) so a bundle can later prove it was built on a quote without
// the relay storing any. A quote binds chain, token, relayer, fee, deadline and expiry; the
// bundle binds relayer, fee and deadline into its proof (extDataHash), so the relay only has to
// check that the bundle's values are a quote's and that the quote has not expired.
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import { BadRequestError } from '../http/errors.js';
import { safeText } from '../http/safe-text.js';
import type { ChainConfig, relayQuoteProof } from '../wallet/index.js';
import type { Clock } from '../context.js';
import type { HostedRelay } from './relay-config.js';
import type { QuoteTypedData } from './relayer.js';
import { currentGasPrice, feeFor } from './relay-fees.js';

/** Long enough to prove (seconds) and for a person to confirm; short enough that gas prices hold. */
export const QUOTE_TTL_SECONDS = 300;
/** The bundle's on-chain deadline, after the quote's expiry: a quoted bundle relayed late still lands. */
export const DEADLINE_AFTER_EXPIRY_SECONDS = 1800;

export const quoteQuery = z.object({
  chain: safeText().min(1).max(64).optional().meta({ description: 'Chain name; default `base-sepolia`' }),
  token: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
    .optional()
    .meta({ description: 'Token of the transfer; omitted or the zero address is the native coin' }),
});

export const quoteSchema = z.object({
  chain: z.string(),
  chainId: z.number().int(),
  pool: z.string(),
  token: z.string(),
  relayer: z.string().meta({ description: "The hosted relayer's smart account: the bundle's `relayer`" }),
  fee: z.string().meta({ description: "The bundle's `fee` (base units of the token), paid by the pool to the relayer" }),
  deadline: z.string().meta({ description: "The bundle's `deadline` (unix seconds)" }),
  expiresAt: z.string().meta({ description: 'The relay accepts bundles built on this quote until then (ISO-8601)' }),
  signature: z.string().meta({ description: "The relayer's EIP-712 signature over chain, token, relayer, fee, deadline and expiry" }),
});
export type RelayQuote = z.output<typeof quoteSchema>;


const ZERO: Address = '0x0000000000000000000000000000000000000000';

function typedQuote(chain: ChainConfig, q: { token: string; relayer: string; fee: bigint; deadline: bigint; expiresAt: bigint }): QuoteTypedData {
  return {
    domain: { name: 'Bureau relay', version: '1', chainId: chain.chainId },
    types: {
      Quote: [
        { name: 'chain', type: 'string' },
        { name: 'pool', type: 'address' },
        { name: 'token', type: 'address' },
        { name: 'relayer', type: 'address' },
        { name: 'fee', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
        { name: 'expiresAt', type: 'uint256' },
      ],
    },
    primaryType: 'Quote',
    message: { chain: chain.name, pool: chain.pool, token: q.token, relayer: q.relayer, fee: q.fee, deadline: q.deadline, expiresAt: q.expiresAt },
  };
}

const seconds = (clock: Clock) => BigInt(Math.floor(clock.now().getTime() / 1000));

export async function createQuote(relay: HostedRelay, chain: ChainConfig, token: string | undefined, clock: Clock): Promise<RelayQuote> {
  const tokenAddress = (token ?? ZERO) as Address;
  // The relayer is paid in the bundle's token; without a price for a token it can only charge in the native coin.
  if (BigInt(tokenAddress) !== 0n) throw new BadRequestError('The hosted relay takes its fee in the native coin only', { token: tokenAddress });
  const [account, gasPrice] = await Promise.all([relay.relayer.account(chain), currentGasPrice(chain)]);
  const fee = feeFor(relay.relayGas, gasPrice);
  const expiresAt = seconds(clock) + BigInt(QUOTE_TTL_SECONDS);
  const deadline = expiresAt + BigInt(DEADLINE_AFTER_EXPIRY_SECONDS);
  const signature = await relay.relayer.sign(typedQuote(chain, { token: ZERO, relayer: account.address, fee, deadline, expiresAt }));
  return {
    chain: chain.name,
    chainId: chain.chainId,
    pool: chain.pool,
    token: ZERO,
    relayer: account.address,
    fee: fee.toString(),
    deadline: deadline.toString(),
    expiresAt: new Date(Number(expiresAt) * 1000).toISOString(),
    signature,
  };
}

export class UnknownQuoteError extends BadRequestError {
  constructor() {
    super('Unknown relay quote', { hint: 'Build the bundle on a quote from GET /api/relay/quote of this relay' });
  }
}

export class QuoteExpiredError extends BadRequestError {
  constructor() {
    super('Relay quote expired', { hint: 'Request a new quote and prove again' });
  }
}

/** The bundle's relayer, fee, deadline and token are those of a quote this relayer signed, still valid. */
export async function checkQuote(
  relay: HostedRelay,
  chain: ChainConfig,
  bundle: { token: string; relayer: string; fee: string; deadline: string; quote?: z.output<typeof relayQuoteProof> },
  clock: Clock,
): Promise<void> {
  if (!bundle.quote) throw new UnknownQuoteError();
  const account = await relay.relayer.account(chain);
  if (bundle.relayer.toLowerCase() !== account.address.toLowerCase()) throw new UnknownQuoteError();
  const expiresAt = BigInt(Math.floor(Date.parse(bundle.quote.expiresAt) / 1000));
  const { recoverTypedDataAddress } = await import('viem');
  const typed = typedQuote(chain, { token: bundle.token.toLowerCase(), relayer: account.address, fee: BigInt(bundle.fee), deadline: BigInt(bundle.deadline), expiresAt });
  let signer: string;
  try {
    signer = await recoverTypedDataAddress({ ...(typed as Parameters<typeof recoverTypedDataAddress>[0]), signature: bundle.quote.signature as Hex });
  } catch {
    throw new UnknownQuoteError();
  }
  if (signer.toLowerCase() !== relay.relayer.signer.toLowerCase()) throw new UnknownQuoteError();
  if (expiresAt < seconds(clock)) throw new QuoteExpiredError();
}
