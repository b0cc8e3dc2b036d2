// JoinSplit prover worker (plain JS so it loads the same way under node, tsx, vitest and a
// bundled app). It reads the wasm and zkey once and keeps them in memory; snarkjs caches the
// BN254 curve (and its thread pool) on globalThis after the first proof, so later proofs skip
// the file reads and the curve setup.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as snarkjs from 'snarkjs';

const wasm = readFileSync(workerData.wasmPath);
const zkey = readFileSync(workerData.zkeyPath);

async function prove(input) {
  const started = performance.now();
  const witness = { type: 'mem' };
  await snarkjs.wtns.calculate(input, { type: 'mem', data: wasm }, witness);
  const witnessMs = performance.now() - started;
  const { proof, publicSignals } = await snarkjs.groth16.prove({ type: 'mem', data: zkey }, witness);
  return { proof, publicSignals, witnessMs, proveMs: performance.now() - started - witnessMs };
}

parentPort.on('message', async (message) => {
  if (message.type === 'close') {
    await globalThis.curve_bn128?.terminate();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, ...(await prove(message.input)) });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ type: 'ready' });
