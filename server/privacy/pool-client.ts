// Turns a planned, proved transaction into the pool's `transact` arguments and calldata, and
// reads the pool state a relay checks before spending gas.
import { encodeFunctionData, type Address, type Hex, type PublicClient } from 'viem';
import { shieldedPoolAbi } from './contract-abis.js';
import { toExtDataArgs, type ExtData } from './ext-data.js';
import type { PublicSignals } from './circuit-inputs.js';
import type { SolidityProof } from './proof.js';

export interface TransactArgs {
  proof: {
    a: readonly [bigint, bigint];
    b: readonly [readonly [bigint, bigint], readonly [bigint, bigint]];
    c: readonly [bigint, bigint];
    root: bigint;
    inputNullifiers: readonly [bigint, bigint];
    outputCommitments: readonly [bigint, bigint];
  };
  extData: ReturnType<typeof toExtDataArgs>;
}

export function buildTransactArgs(proof: SolidityProof, signals: PublicSignals, extData: ExtData): TransactArgs {
  return {
    proof: {
      ...proof,
      root: signals.root,
      inputNullifiers: signals.inputNullifiers,
      outputCommitments: signals.outputCommitments,
    },
    extData: toExtDataArgs(extData),
  };
}

export function encodeTransactCall(args: TransactArgs): Hex {
  return encodeFunctionData({ abi: shieldedPoolAbi, functionName: 'transact', args: [args.proof, args.extData] });
}

/** ETH a caller must attach: the deposit for a native-ETH shield, else nothing. */
export function transactValue(extData: ExtData): bigint {
  return extData.token === '0x0000000000000000000000000000000000000000' && extData.extAmount > 0n ? extData.extAmount : 0n;
}

export async function isKnownRoot(client: PublicClient, pool: Address, root: bigint): Promise<boolean> {
  return client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'isKnownRoot', args: [root] });
}

export async function isNullifierSpent(client: PublicClient, pool: Address, nullifier: bigint): Promise<boolean> {
  return client.readContract({ address: pool, abi: shieldedPoolAbi, functionName: 'nullifierSpent', args: [nullifier] });
}
