// npm run circuits:check — fails when the committed circuit or contract artifacts no longer match
// their sources: recompiles the circuit (deterministic) and the contracts and compares hashes and
// bytes, checks the committed files against the manifests, and that the committed verification
// key and Solidity verifier belong to the committed zkey. No ceremony runs here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as snarkjs from 'snarkjs';
import { compileCircuit } from './compile-circuit.js';
import { compileContracts } from './compile-contracts.js';
import { merkleZerosPath, poseidonHasherPath, renderMerkleZeros, renderPoseidonHasher } from './generate-poseidon.js';
import { hashFiles, sha256File, type CircuitManifest } from './manifest.js';
import { circuitSources, contractsOutDir, zkDir, circuitName, repoRoot } from './paths.js';
import { abiModulePath, renderAbiModule, renderArtifact, renderContractsManifest } from './write-contracts.js';

const problems: string[] = [];
const expectEqual = (what: string, actual: string, expected: string) => {
  if (actual !== expected) problems.push(`${what}: committed artifact does not match (run npm run circuits:build)`);
};

async function checkCircuit(): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(zkDir, 'manifest.json'), 'utf8')) as CircuitManifest;
  const sources = hashFiles(circuitSources);
  expectEqual('circuit sources', JSON.stringify(sources), JSON.stringify(manifest.sources));
  for (const [file, hash] of Object.entries(manifest.artifacts)) expectEqual(file, sha256File(path.join(repoRoot, file)), hash);

  const dir = mkdtempSync(path.join(tmpdir(), 'circuit-check-'));
  try {
    const compiled = compileCircuit(dir);
    expectEqual('r1cs (zkey was set up for another circuit)', sha256File(compiled.r1cs), manifest.r1cs);
    expectEqual(`resources/zk/${circuitName}.wasm`, sha256File(compiled.wasm), manifest.artifacts[`resources/zk/${circuitName}.wasm`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const zkeyVkey = await snarkjs.zKey.exportVerificationKey(path.join(zkDir, `${circuitName}.zkey`));
  const committedVkey = JSON.parse(readFileSync(path.join(zkDir, `${circuitName}.vkey.json`), 'utf8'));
  expectEqual('verification key vs zkey', JSON.stringify(committedVkey), JSON.stringify(zkeyVkey));
  // The verifier hard-codes the key's points: every IC point must appear in it.
  const verifier = readFileSync(path.join(zkDir, 'Groth16Verifier.sol'), 'utf8');
  const ic = (committedVkey as { IC: string[][] }).IC.flatMap((p) => p.slice(0, 2));
  if (!ic.every((x) => verifier.includes(x))) problems.push('Groth16Verifier.sol does not embed the committed verification key');
}

function checkContracts(): void {
  expectEqual('circuits/contracts/PoseidonHasher.sol (generated)', readFileSync(poseidonHasherPath, 'utf8'), renderPoseidonHasher());
  expectEqual('circuits/contracts/MerkleZeros.sol (generated)', readFileSync(merkleZerosPath, 'utf8'), renderMerkleZeros());
  const artifacts = compileContracts();
  for (const a of artifacts) {
    const file = path.join(contractsOutDir, `${a.contractName}.json`);
    expectEqual(`resources/contracts/${a.contractName}.json`, readFileSync(file, 'utf8'), renderArtifact(a));
  }
  expectEqual('server/privacy/contract-abis.ts', readFileSync(abiModulePath, 'utf8'), renderAbiModule(artifacts));
  expectEqual('resources/contracts/manifest.json', readFileSync(path.join(contractsOutDir, 'manifest.json'), 'utf8'), renderContractsManifest(artifacts));
}

const started = Date.now();
checkContracts();
await checkCircuit();
await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
if (problems.length) {
  console.error(problems.map((p) => `✗ ${p}`).join('\n'));
  process.exit(1);
}
console.log(`circuits:check ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
