// The manifest ties committed artifacts to the sources they were built from: SHA-256 of every
// circuit source, of the compiled r1cs and wasm (compilation is deterministic), and of the
// ceremony outputs. `circuits:check` recompiles and compares against it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function relativeToRepo(file: string): string {
  return path.relative(repoRoot, file).split(path.sep).join('/');
}

export function hashFiles(files: string[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [relativeToRepo(f), sha256File(f)]));
}

export interface CircuitManifest {
  circuit: string;
  compiler: string;
  constraints: number;
  ptauPower: number;
  sources: Record<string, string>;
  r1cs: string;
  artifacts: Record<string, string>;
  ceremony: string;
}
