// JoinSplit prover process (plain JS so it loads the same way under node, tsx, vitest and a
// bundled app). It is a child process rather than a worker_thread because snarkjs proves on a
// pool of threads that it can only spawn from a main thread (its `web-worker` dependency turns
// into the worker-side shim inside a worker_thread, and single-threaded proving is ~2x slower).
// It reads the wasm and zkey once and keeps them in memory; snarkjs caches the BN254 curve and
// its threads on globalThis after the first proof, so later proofs skip file reads and setup.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as snarkjs from 'snarkjs';

const wasmPath = process.env.BUREAU_PROVER_WASM;
const zkeyPath = process.env.BUREAU_PROVER_ZKEY;
const wasm = readFileSync(wasmPath);
const zkey = readFileSync(zkeyPath);
// Build the BN254 curve and its thread pool now (snarkjs reuses the cached instance), so even the
// first proof in this process is a warm one.
await snarkjs.curves.getCurveFromName('bn128');

async function prove(input) {
  const started = performance.now();
  const witness = { type: 'mem' };
  await snarkjs.wtns.calculate(input, { type: 'mem', data: wasm }, witness);
  const witnessMs = performance.now() - started;
  const { proof, publicSignals } = await snarkjs.groth16.prove({ type: 'mem', data: zkey }, witness);
  return { proof, publicSignals, witnessMs, proveMs: performance.now() - started - witnessMs };
}

async function shutdown() {
  await globalThis.curve_bn128?.terminate();
  process.exit(0);
}

process.on('message', async (message) => {
  if (message.type === 'close') return shutdown();
  try {
    process.send({ id: message.id, ...(await prove(message.input)) });
  } catch (err) {
    process.send({ id: message.id, error: err instanceof Error ? err.message : String(err) });
  }
});
// The parent went away (crash, kill): do not linger.
process.on('disconnect', () => void shutdown());
process.send({ type: 'ready' });
