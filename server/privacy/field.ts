// The BN254 scalar field that the circuit and the Poseidon hash work in.
import { randomBytes } from '@noble/hashes/utils.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { FIELD_SIZE } from '../shared/privacy/field.js';

export { FIELD_SIZE };

/** 2^128: every note amount, |extAmount| and fee stay below it. */
export const AMOUNT_LIMIT = 1n << 128n;

export function toField(value: bigint): bigint {
  const r = value % FIELD_SIZE;
  return r < 0n ? r + FIELD_SIZE : r;
}

/** A uniformly random field element: 48 random bytes reduced mod p leave a bias below 2^-128. */
export function randomFieldElement(): bigint {
  return bytesToNumberBE(randomBytes(48)) % FIELD_SIZE;
}

export function toHex32(value: bigint): `0x${string}` {
  return `0x${value.toString(16).padStart(64, '0')}`;
}
