// npm run circuits:build — compile the circuit, run the local ceremony, export the verification
// key and Solidity verifier, and write resources/zk/ with a manifest. Slow (phase 2 of the
// ceremony): run once per circuit change, commit the artifacts, never in CI.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as snarkjs from 'snarkjs';
import { compileCircuit } from './compile-circuit.js';
import { ptauPowerFor, runPhase2 } from './ceremony.js';
import { hashFiles, sha256File, type CircuitManifest } from './manifest.js';
import { buildDir, circuitName, circuitSources, zkDir } from './paths.js';

async function buildCircuit(): Promise<void> {
  const compiled = compileCircuit(path.join(buildDir, 'compile'));
  const info = await snarkjs.r1cs.info(compiled.r1cs);
  const ptauPower = ptauPowerFor(info);
  const phase2 = runPhase2(compiled.r1cs, ptauPower, path.join(buildDir, 'phase2'));

  mkdirSync(zkDir, { recursive: true });
  const out = {
    wasm: path.join(zkDir, `${circuitName}.wasm`),
    zkey: path.join(zkDir, `${circuitName}.zkey`),
    vkey: path.join(zkDir, `${circuitName}.vkey.json`),
    verifier: path.join(zkDir, 'Groth16Verifier.sol'),
  };
  copyFileSync(compiled.wasm, out.wasm);
  copyFileSync(phase2.zkey, out.zkey);
  copyFileSync(phase2.vkey, out.vkey);
  copyFileSync(phase2.verifier, out.verifier);

  const manifest: CircuitManifest = {
    circuit: circuitName,
    compiler: 'circom2 (circom 2.2.3) --O2',
    constraints: info.nConstraints,
    ptauPower,
    sources: hashFiles(circuitSources),
    r1cs: sha256File(compiled.r1cs),
    artifacts: hashFiles(Object.values(out)),
    ceremony:
      `local: powers of tau 2^${ptauPower} with 2 contributions + beacon, phase 2 with 2 contributions + beacon; ` +
      'entropy from the OS CSPRNG, never stored',
  };
  writeFileSync(path.join(zkDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.log(`constraints: ${manifest.constraints}`);
  console.log(JSON.parse(readFileSync(path.join(zkDir, 'manifest.json'), 'utf8')));
}

await buildCircuit();
// snarkjs leaves its curve worker threads alive.
await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
