// Compiles the pool contracts with solc-js (pinned by package-lock) and produces the Poseidon
// hasher bytecode with circomlibjs. Pure function of the sources, so `circuits:check` can rerun
// it and compare with the committed artifacts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { contractsSrcDir, zkDir } from './paths.js';

const require = createRequire(import.meta.url);

export interface ContractArtifact {
  contractName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

// Cancun: supported by anvil and by Base; keeps the bytecode independent of solc's default.
export const solcSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

export const contractSources: Record<string, string> = {
  'MerkleTreeWithHistory.sol': path.join(contractsSrcDir, 'MerkleTreeWithHistory.sol'),
  'ShieldedPool.sol': path.join(contractsSrcDir, 'ShieldedPool.sol'),
  'TestToken.sol': path.join(contractsSrcDir, 'TestToken.sol'),
  'test/ShieldedPoolHarness.sol': path.join(contractsSrcDir, 'test', 'ShieldedPoolHarness.sol'),
  // Exported by the ceremony (snarkjs template): the verifier for the committed zkey.
  'Groth16Verifier.sol': path.join(zkDir, 'Groth16Verifier.sol'),
};

const wanted = ['ShieldedPool', 'ShieldedPoolHarness', 'TestToken', 'Groth16Verifier'];

export function solcVersion(): string {
  return (require('solc') as { version(): string }).version();
}

export function compileContracts(): ContractArtifact[] {
  const solc = require('solc') as { compile(input: string): string };
  const sources = Object.fromEntries(
    Object.entries(contractSources)
      .filter(([, file]) => existsSync(file))
      .map(([name, file]) => [name, { content: readFileSync(file, 'utf8') }]),
  );
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: solcSettings }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifacts: ContractArtifact[] = [];
  for (const file of Object.values(output.contracts)) {
    for (const [contractName, c] of Object.entries(file)) {
      if (!wanted.includes(contractName)) continue;
      artifacts.push({ contractName, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` });
    }
  }
  artifacts.push(buildPoseidonHasher());
  return artifacts.sort((a, b) => a.contractName.localeCompare(b.contractName));
}

function buildPoseidonHasher(): ContractArtifact {
  const { poseidonContract } = require('circomlibjs') as {
    poseidonContract: { createCode(n: number): string; generateABI(n: number): unknown[] };
  };
  const code = poseidonContract.createCode(2);
  return { contractName: 'PoseidonT3', abi: poseidonContract.generateABI(2), bytecode: code.startsWith('0x') ? (code as `0x${string}`) : `0x${code}` };
}
