// One cold snarkjs fullProve in a fresh process, as an app without a warm prover pays it per
// proof: reads the wasm and zkey, compiles them, builds the curve and its threads. Prints the
// call's wall time (process start-up and the snarkjs import are not counted).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as snarkjs from 'snarkjs';

const [inputPath, wasmPath, zkeyPath] = process.argv.slice(2);
const input = JSON.parse(readFileSync(inputPath, 'utf8'));
const started = performance.now();
await snarkjs.groth16.fullProve(input, wasmPath, zkeyPath);
const ms = performance.now() - started;
await globalThis.curve_bn128?.terminate();
console.log(JSON.stringify({ ms }));
