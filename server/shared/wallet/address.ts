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

/**
 * What is wrong with a typed public address, in words (null: nothing). Mixed case carries an
 * EIP-55 checksum, which must match: one mistyped character is caught before funds leave.
 * All-lower or all-upper case carries none and is taken as it is.
 */
export function publicAddressProblem(value: string): string | null {
  const t = value.trim();
  if (!/^0x/i.test(t)) return 'A public address starts with 0x.';
  if (!isHexAddress(t)) return `A public address is 0x and 40 hexadecimal characters (0–9, a–f); this one has ${t.length - 2}${/^0x[0-9a-fA-F]*$/.test(t) ? '' : ' and other characters'}.`;
  if (BigInt(t) === 0n) return 'The zero address burns funds: enter the recipient’s address.';
  const body = t.slice(2);
  if (body !== body.toLowerCase() && body !== body.toUpperCase() && checksumAddress(t) !== t) return 'This address has a typo: its capital letters do not match its EIP-55 checksum. Copy it again from the recipient.';
  return null;
}
