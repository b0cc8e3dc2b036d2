// One chain's wallet infrastructure. `npm run devnet` prints exactly this shape for the chain
// named `local`; `base-sepolia` needs the same fields from config.
import { z } from 'zod';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x-prefixed 20-byte address');

export const chainConfigSchema = z.object({
  chainId: z.number().int().positive(),
  rpcUrl: z.string().url(),
  bundlerUrl: z.string().url(),
  paymasterUrl: z.string().url().optional(),
  entryPoint: address,
  /** SimpleAccountFactory (ERC-4337 v0.8) used to create entities' smart accounts. */
  accountFactory: address,
  pool: address,
  /** Block the pool was deployed in: the indexer starts scanning there. */
  poolDeployBlock: z.number().int().nonnegative().default(0),
  /** A test ERC-20 on devnets; real chains list their tokens in `tokens`. */
  token: address.optional(),
  tokens: z.record(z.string(), address).default({}),
});

export type ChainConfig = z.infer<typeof chainConfigSchema>;

export function parseChainConfig(value: unknown): ChainConfig {
  return chainConfigSchema.parse(value);
}
