// snarkjs' own warm proving path, as the prover thread runs it (server/privacy/prover-worker.mjs)
// but in the calling thread: the zkey bytes in memory, the witness calculator compiled once, the
// curve (and its thread pool) left built between proofs. A baseline for privacy.bench.ts.
import { readFileSync } from 'node:fs';
import * as snarkjs from 'snarkjs';
import { WitnessCalculatorBuilder } from 'circom_runtime';

export async function snarkjsWarmProver(wasmPath, zkeyPath) {
  const zkey = { type: 'mem', data: new Uint8Array(readFileSync(zkeyPath)) };
  const calculator = await WitnessCalculatorBuilder(readFileSync(wasmPath));
  return async (input) => snarkjs.groth16.prove(zkey, { type: 'mem', data: await calculator.calculateWTNSBin(input) });
}
