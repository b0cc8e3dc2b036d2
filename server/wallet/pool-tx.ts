// Shared steps of every pool transaction this server makes: a fresh view of the chain, a
// deadline, proving a planned transaction, and its `transact` calldata.
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import type { Context } from '../context.js';
import { buildTransactArgs, encodeTransactCall, transactValue, type PlannedTransaction, type PoolContext, toHex32 } from '../privacy/index.js';
import type { ChainConfig } from './chains.js';
import { syncChain } from './chain-sync.js';
import { proveJoinSplit } from './prover.js';
import type { Call } from './bundler.js';
import { isNative } from './amounts.js';
import { BUNDLE_LIFETIME_SECONDS } from './activity.js';


export async function poolContext(ctx: Context, chain: ChainConfig): Promise<PoolContext> {
  const state = await syncChain(ctx, chain);
  return { chainId: BigInt(chain.chainId), pool: chain.pool, tree: state.indexer.tree };
}

export function bundleDeadline(ctx: Context): bigint {
  return BigInt(Math.floor(ctx.clock.now().getTime() / 1000) + BUNDLE_LIFETIME_SECONDS);
}

export interface ProvedTransaction {
  plan: PlannedTransaction;
  proofHex: Hex;
  calldata: Hex;
  value: bigint;
  root: Hex;
  nullifiers: Hex[];
  commitments: Hex[];
}

export async function proveTransaction(ctx: Context, plan: PlannedTransaction): Promise<ProvedTransaction> {
  const { proof, proofHex } = await proveJoinSplit(ctx, plan.joinSplit.input);
  const signals = plan.joinSplit.publicSignals;
  return {
    plan,
    proofHex,
    calldata: encodeTransactCall(buildTransactArgs(proof, signals, plan.extData)),
    value: transactValue(plan.extData),
    root: toHex32(signals.root),
    nullifiers: signals.inputNullifiers.map(toHex32),
    commitments: signals.outputCommitments.map(toHex32),
  };
}

/** The calls a depositor makes: approve the pool for an ERC-20, then transact (with the ETH for native). */
export function depositCalls(chain: ChainConfig, token: Address, amount: bigint, proved: ProvedTransaction): Call[] {
  const transact: Call = { to: chain.pool, data: proved.calldata, value: proved.value };
  if (isNative(token)) return [transact];
  const approve: Call = { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [chain.pool, amount] }) };
  return [approve, transact];
}
