// Off-chain Groth16 verification against the committed verification key.
import { readFileSync } from 'node:fs';
import * as snarkjs from 'snarkjs';
import { defaultCircuitArtifacts } from './artifacts.js';
import type { Groth16Proof } from './proof.js';

let cachedKey: { path: string; key: unknown } | null = null;

function loadVerificationKey(vkeyPath: string): unknown {
  if (cachedKey?.path !== vkeyPath) cachedKey = { path: vkeyPath, key: JSON.parse(readFileSync(vkeyPath, 'utf8')) };
  return cachedKey.key;
}

export async function verifyJoinSplitProof(
  publicSignals: readonly bigint[],
  proof: Groth16Proof,
  vkeyPath: string = defaultCircuitArtifacts().vkeyPath,
): Promise<boolean> {
  return snarkjs.groth16.verify(loadVerificationKey(vkeyPath), publicSignals.map(String), proof);
}

/** snarkjs keeps the curve's worker threads alive; call when done verifying in this thread. */
export async function releaseCurve(): Promise<void> {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
  delete (globalThis as { curve_bn128?: unknown }).curve_bn128;
}
