// EIP-55 address checks for what runs at start (chain configuration): the same results as viem's
// `isAddress(v, { strict: false })` and `getAddress(v)`, without loading viem (hundreds of
// modules) before the first wallet request.
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Address } from 'viem';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A 0x-prefixed 20-byte hex string, whatever its letter case (viem: `isAddress(v, { strict: false })`). */
export function isHexAddress(value: string): boolean {
  return ADDRESS.test(value);
}

/** The EIP-55 checksummed form of a 0x-prefixed 20-byte address (viem: `getAddress`). */
export function checksumAddress(value: string): Address {
  if (!isHexAddress(value)) throw new Error(`Address "${value}" is invalid.`);
  const hex = value.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out as Address;
}
