// JoinSplit prover thread (plain JS so it loads the same way under node, tsx, vitest and a
// bundled app). It reads the zkey and compiles the witness calculator once, and builds the BN254
// curve with its proving threads up front, so every proof it is asked for is a warm one: no file
// reads, no wasm compilation, no thread start-up.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
// snarkjs proves on a pool of threads that it creates through the `web-worker` package, which
// decides once, as it loads, whether it runs in the pool's owner or in a pool thread — by
// `isMainThread`. This thread is the owner of its pool, so it says so while snarkjs loads; the
// pool threads it then starts still see `false` and take the pool-thread side.
const workerThreads = require('node:worker_threads');
workerThreads.isMainThread = true;
const snarkjs = await import('snarkjs');
const { WitnessCalculatorBuilder } = await import('circom_runtime');
workerThreads.isMainThread = false;

const zkey = readFileSync(workerData.zkeyPath);
const witnessCalculator = await WitnessCalculatorBuilder(readFileSync(workerData.wasmPath));
await snarkjs.curves.getCurveFromName('bn128');

async function prove(input) {
  const started = performance.now();
  const witness = await witnessCalculator.calculateWTNSBin(input);
  const witnessMs = performance.now() - started;
  const { proof, publicSignals } = await snarkjs.groth16.prove({ type: 'mem', data: zkey }, { type: 'mem', data: witness });
  return { proof, publicSignals, witnessMs, proveMs: performance.now() - started - witnessMs };
}

parentPort.on('message', async ({ id, input }) => {
  try {
    parentPort.postMessage({ id, ...(await prove(input)) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ type: 'ready' });
