// What a token is called and how many decimals it has: from the chain configuration, else read
// once from the ERC-20 contract. Used for display and for the ledger's `SYMBOL/decimals` currency.
import { erc20Abi, getAddress, type Address } from 'viem';
import type { ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { isNative } from './amounts.js';

export interface TokenInfo {
  address: Address;
  symbol: string | null;
  decimals: number | null;
}

const cache = new Map<string, TokenInfo>();

export async function tokenInfo(chain: ChainConfig, token: Address): Promise<TokenInfo> {
  if (isNative(token)) return { address: token, symbol: chain.nativeSymbol, decimals: 18 };
  const configured = chain.tokens.find((t) => t.address === getAddress(token));
  const key = `${chain.chainId}:${token.toLowerCase()}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const client = publicClientFor(chain);
  const [symbol, decimals] = await Promise.all([
    configured?.symbol ?? client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => null),
    configured?.decimals ?? client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => null),
  ]);
  const info = { address: token, symbol, decimals };
  if (symbol !== null && decimals !== null) cache.set(key, info);
  return info;
}

/** The ledger's currency code for a token (`ETH/18`, `BTT/18`), or null when it has no usable symbol. */
export function ledgerCurrency(info: TokenInfo): string | null {
  if (!info.symbol || info.decimals === null) return null;
  const code = info.symbol.toUpperCase();
  return /^[A-Z][A-Z0-9]{1,9}$/.test(code) && info.decimals <= 30 ? `${code}/${info.decimals}` : null;
}
