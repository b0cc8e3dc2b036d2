// Local Groth16 trusted setup. Phase 1 (powers of tau) depends only on the size, so it is cached
// under circuits/build/ceremony and reused; phase 2 is per circuit. Every contribution draws its
// entropy from the OS CSPRNG and the entropy is never written anywhere, and each phase ends with a
// public beacon so the result does not depend on a single contributor alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { ceremonyDir, circuitName, repoRoot } from './paths.js';

const snarkjsCli = path.join(repoRoot, 'node_modules', 'snarkjs', 'build', 'cli.cjs');
// A fixed, published beacon value (the SHA-256 of "bureau shielded pool beacon 2026-11").
const beaconHash = '810d03637fe25eaeb8138ef8d10bfef0a6125faae0f14f36ec61b941be862fd6';
const beaconIterationsExp = '10';

function runSnarkjs(args: string[]): void {
  console.log(`$ snarkjs ${args.join(' ')}`.replace(/-e=\S+/, '-e=<entropy>'));
  execFileSync(process.execPath, [snarkjsCli, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
}

function entropy(): string {
  return randomBytes(32).toString('hex');
}

/** Smallest power of two that holds the circuit's constraints plus its public inputs. */
export function ptauPowerFor(info: { nConstraints: number; nPubInputs: number; nOutputs: number }): number {
  return Math.max(8, Math.ceil(Math.log2(info.nConstraints + info.nPubInputs + info.nOutputs + 1)));
}

export function finalPtauPath(ptauPower: number): string {
  return path.join(ceremonyDir, `pot${ptauPower}_final.ptau`);
}

export function runPhase1(ptauPower: number): string {
  const final = finalPtauPath(ptauPower);
  if (existsSync(final)) return final;
  mkdirSync(ceremonyDir, { recursive: true });
  const p = (step: string) => path.join(ceremonyDir, `pot${ptauPower}_${step}.ptau`);
  runSnarkjs(['powersoftau', 'new', 'bn128', String(ptauPower), p('0000'), '-v']);
  runSnarkjs(['powersoftau', 'contribute', p('0000'), p('0001'), '--name=contributor 1', `-e=${entropy()}`]);
  runSnarkjs(['powersoftau', 'contribute', p('0001'), p('0002'), '--name=contributor 2', `-e=${entropy()}`]);
  runSnarkjs(['powersoftau', 'beacon', p('0002'), p('beacon'), beaconHash, beaconIterationsExp, '-n=phase 1 beacon']);
  runSnarkjs(['powersoftau', 'prepare', 'phase2', p('beacon'), `${final}.tmp`, '-v']);
  renameSync(`${final}.tmp`, final);
  return final;
}

export interface Phase2Result {
  zkey: string;
  vkey: string;
  verifier: string;
}

/** Runs a step unless its output exists: an interrupted ceremony resumes where it stopped. */
function step(output: string, args: string[]): void {
  if (existsSync(output)) return;
  runSnarkjs(args.map((a) => (a === output ? `${output}.tmp` : a)));
  renameSync(`${output}.tmp`, output);
}

export function runPhase2(r1cs: string, ptauPower: number, outDir: string): Phase2Result {
  const ptau = runPhase1(ptauPower);
  mkdirSync(outDir, { recursive: true });
  // Intermediates are keyed by the r1cs hash so a changed circuit never reuses a stale setup.
  const r1csId = createHash('sha256').update(readFileSync(r1cs)).digest('hex').slice(0, 16);
  const z = (name: string) => path.join(ceremonyDir, `${circuitName}_${r1csId}_${name}.zkey`);
  step(z('0000'), ['groth16', 'setup', r1cs, ptau, z('0000')]);
  step(z('0001'), ['zkey', 'contribute', z('0000'), z('0001'), '--name=contributor 1', `-e=${entropy()}`]);
  step(z('0002'), ['zkey', 'contribute', z('0001'), z('0002'), '--name=contributor 2', `-e=${entropy()}`]);
  const zkey = path.join(outDir, `${circuitName}.zkey`);
  runSnarkjs(['zkey', 'beacon', z('0002'), zkey, beaconHash, beaconIterationsExp, '-n=phase 2 beacon']);
  runSnarkjs(['zkey', 'verify', r1cs, ptau, zkey]);
  const vkey = path.join(outDir, `${circuitName}.vkey.json`);
  runSnarkjs(['zkey', 'export', 'verificationkey', zkey, vkey]);
  const verifier = path.join(outDir, 'Groth16Verifier.sol');
  runSnarkjs(['zkey', 'export', 'solidityverifier', zkey, verifier]);
  return { zkey, vkey, verifier };
}

// `tsx ceremony.ts phase1 <power>`: run phase 1 ahead of time (it does not depend on the circuit).
if (process.argv[2] === 'phase1') {
  console.log(runPhase1(Number(process.argv[3] ?? 14)));
}
