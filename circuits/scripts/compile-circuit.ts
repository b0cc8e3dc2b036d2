// Compiles the JoinSplit circuit with circom2 (--O2: half the constraints of --O1, see MACHINE.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { circuitMain, circuitName, repoRoot } from './paths.js';

export interface CompiledCircuit {
  r1cs: string;
  wasm: string;
  sym: string;
}

export function compileCircuit(outDir: string): CompiledCircuit {
  mkdirSync(outDir, { recursive: true });
  const circom = path.join(repoRoot, 'node_modules', '.bin', 'circom2');
  execFileSync(
    circom,
    [circuitMain, '--r1cs', '--wasm', '--sym', '--O2', '-l', path.join(repoRoot, 'node_modules'), '-o', outDir],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return {
    r1cs: path.join(outDir, `${circuitName}.r1cs`),
    wasm: path.join(outDir, `${circuitName}_js`, `${circuitName}.wasm`),
    sym: path.join(outDir, `${circuitName}.sym`),
  };
}
