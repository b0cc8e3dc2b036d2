// The public side of the wallet a newcomer must see to get started: the business's smart account
// (which pays network fees and funds shielding) and the business's own relayer (which pays to submit
// private transfers), with their addresses and native balances — and, on a local development
// chain only, a way to fund them.
import { createWalletClient, http, parseEther, type Address } from 'viem';
import type { Context } from '../context.js';
import { BadGatewayError, BadRequestError } from '../http/errors.js';
import { entityAccount, relayerAccount } from './accounts.js';
import { requireChain, type ChainConfig } from './chains.js';
import { publicClientFor } from './clients.js';
import { loadEntityWallet } from './wallet-keys.js';

/** Anvil's chain id: the only chain where Bureau may hand out test money. */
const DEVNET_CHAIN_ID = 31337;
export const DEVNET_FUND = parseEther('1');

async function balanceOrNull(chain: ChainConfig, address: Address): Promise<string | null> {
  try {
    return (await publicClientFor(chain).getBalance({ address })).toString();
  } catch {
    return null; // shown as unknown; the chain problem is in status
  }
}

export async function getPublicAccounts(ctx: Context, entityId: string, input: { chain?: string }) {
  const chain = requireChain(ctx, input.chain);
  const wallet = loadEntityWallet(ctx, entityId);
  const [account, relayer] = await Promise.all([entityAccount(ctx, chain, wallet), relayerAccount(ctx, chain, entityId)]);
  const [accountBalance, relayerBalance] = await Promise.all([balanceOrNull(chain, account.address), balanceOrNull(chain, relayer.address)]);
  return {
    chain: chain.name,
    chainId: chain.chainId,
    nativeSymbol: chain.nativeSymbol,
    account: { address: account.address, balance: accountBalance },
    relayer: { address: relayer.address, balance: relayerBalance },
    devnet: chain.chainId === DEVNET_CHAIN_ID,
  };
}

/**
 * Local development chain only: sends 1 of the native coin to the business's account or the
 * relayer from the node's own unlocked development account (anvil's), so a newcomer can try the
 * wallet without a faucet. Refused on every other chain.
 */
export async function fundFromDevnet(ctx: Context, entityId: string, input: { chain?: string; target: 'account' | 'relayer' }) {
  const chain = requireChain(ctx, input.chain);
  if (chain.chainId !== DEVNET_CHAIN_ID) throw new BadRequestError('Funding from the devnet is only possible on a local development chain (chain id 31337)');
  const wallet = loadEntityWallet(ctx, entityId);
  const to = input.target === 'account' ? (await entityAccount(ctx, chain, wallet)).address : (await relayerAccount(ctx, chain, entityId)).address;
  const client = publicClientFor(chain);
  // The node's own (JSON-RPC) account: viem sends with eth_sendTransaction, the node signs.
  const node = createWalletClient({ chain: client.chain, transport: http(chain.rpcUrl, { timeout: 15_000 }) });
  try {
    const [from] = await node.getAddresses();
    if (!from) throw new BadRequestError('The local chain has no unlocked development account to fund from');
    const hash = await node.sendTransaction({ account: from, to, value: DEVNET_FUND, chain: client.chain });
    await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
    return { funded: true as const, target: input.target, address: to, amount: DEVNET_FUND.toString(), txHash: hash, balance: (await client.getBalance({ address: to })).toString() };
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadGatewayError('The local chain did not take the transfer', { reason: (err as Error).message.split('\n')[0].slice(0, 300) });
  }
}
