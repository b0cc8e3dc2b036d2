// viem clients per configured chain: a public client for reads and logs, and a bundler client
// (with the chain's paymaster when configured) for a SimpleAccount v0.8 owned by a local key.
import { createPublicClient, defineChain, http, type Hex, type PublicClient } from 'viem';
import { createBundlerClient, createPaymasterClient, type BundlerClient, type SmartAccount } from 'viem/account-abstraction';
import { privateKeyToAccount } from 'viem/accounts';
import { toSimpleSmartAccount } from 'permissionless/accounts';
import type { ChainConfig } from './chains.js';

const RPC_TIMEOUT_MS = 15_000;
const publicClients = new Map<string, PublicClient>();

function viemChain(chain: ChainConfig) {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: chain.nativeSymbol, symbol: chain.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

/** A cached public client for the chain's RPC. */
export function publicClientFor(chain: ChainConfig): PublicClient {
  const key = `${chain.name}|${chain.rpcUrl}|${chain.chainId}`;
  let client = publicClients.get(key);
  if (!client) {
    client = createPublicClient({ chain: viemChain(chain), transport: http(chain.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 1 }) }) as PublicClient;
    publicClients.set(key, client);
  }
  return client;
}

/** The SimpleAccount (EntryPoint v0.8) owned by `ownerKey`; its address is counterfactual until first use. */
export function smartAccountFor(chain: ChainConfig, ownerKey: Hex): Promise<SmartAccount> {
  return toSimpleSmartAccount({
    client: publicClientFor(chain),
    owner: privateKeyToAccount(ownerKey),
    entryPoint: { address: chain.entryPoint, version: '0.8' },
    ...(chain.accountFactory ? { factoryAddress: chain.accountFactory } : {}),
  }) as Promise<SmartAccount>;
}

/** A bundler client for `account`, sponsored by the chain's paymaster when one is configured. */
export function bundlerClientFor(chain: ChainConfig, account?: SmartAccount): BundlerClient {
  return createBundlerClient({
    account,
    client: publicClientFor(chain),
    chain: viemChain(chain),
    transport: http(chain.bundlerUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }),
    ...(chain.paymasterUrl ? { paymaster: createPaymasterClient({ transport: http(chain.paymasterUrl, { timeout: RPC_TIMEOUT_MS }) }) } : {}),
  });
}
