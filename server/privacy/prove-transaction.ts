// Proves a planned transaction and returns everything needed to submit or relay it, after
// checking that the prover's public signals are exactly the ones the plan (and so the contract)
// will use: a mismatch would only surface on chain as InvalidProof.
import { flattenPublicSignals } from './circuit-inputs.js';
import { buildTransactArgs, transactValue, type TransactArgs } from './pool-client.js';
import { encodeProof, toSolidityProof } from './proof.js';
import type { JoinSplitProver } from './prover.js';
import type { PlannedTransaction } from './transaction.js';
import type { Hex } from 'viem';

export interface ProvedTransaction {
  planned: PlannedTransaction;
  args: TransactArgs;
  /** abi.encode(uint256[8]) of the proof, for transport. */
  proofHex: Hex;
  /** ETH to attach to `transact` (the deposit of a native-ETH shield). */
  value: bigint;
  witnessMs: number;
  proveMs: number;
}

export async function proveTransaction(
  prover: JoinSplitProver,
  planned: PlannedTransaction,
  options: { timeoutMs?: number } = {},
): Promise<ProvedTransaction> {
  const result = await prover.prove(planned.joinSplit.input, options);
  const expected = flattenPublicSignals(planned.joinSplit.publicSignals);
  if (result.publicSignals.length !== expected.length || result.publicSignals.some((s, i) => BigInt(s) !== expected[i])) {
    throw new Error('Prover returned unexpected public signals');
  }
  const proof = toSolidityProof(result.proof);
  return {
    planned,
    args: buildTransactArgs(proof, planned.joinSplit.publicSignals, planned.extData),
    proofHex: encodeProof(proof),
    value: transactValue(planned.extData),
    witnessMs: result.witnessMs,
    proveMs: result.proveMs,
  };
}
