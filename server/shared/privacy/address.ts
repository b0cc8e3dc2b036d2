// Shielded address: "bzk1" + hex(pubkey 32 bytes || viewing public key 32 bytes || checksum 4 bytes),
// checksum = first 4 bytes of SHA-256 over the prefix and the 64 key bytes, so a mistyped address
// is rejected instead of sending funds to nobody.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { bytesToNumberBE, equalBytes, numberToBytesBE } from '@noble/curves/utils.js';
import { FIELD_SIZE } from './field.js';

export const ADDRESS_PREFIX = 'bzk1';

export interface ShieldedAddress {
  pubkey: bigint;
  viewingPublicKey: Uint8Array;
}

function checksumOf(body: Uint8Array): Uint8Array {
  return sha256(concatBytes(new TextEncoder().encode(ADDRESS_PREFIX), body)).subarray(0, 4);
}

export function encodeAddress(address: ShieldedAddress): string {
  if (address.viewingPublicKey.length !== 32) throw new Error('Viewing public key must be 32 bytes');
  const body = concatBytes(numberToBytesBE(address.pubkey, 32), address.viewingPublicKey);
  return ADDRESS_PREFIX + bytesToHex(concatBytes(body, checksumOf(body)));
}

export function decodeAddress(text: string): ShieldedAddress {
  if (!text.startsWith(ADDRESS_PREFIX)) throw new Error('Invalid shielded address');
  const hex = text.slice(ADDRESS_PREFIX.length);
  if (!/^[0-9a-f]{136}$/.test(hex)) throw new Error('Invalid shielded address');
  const bytes = hexToBytes(hex);
  const body = bytes.subarray(0, 64);
  if (!equalBytes(bytes.subarray(64), checksumOf(body))) throw new Error('Invalid shielded address checksum');
  const pubkey = bytesToNumberBE(body.subarray(0, 32));
  if (pubkey >= FIELD_SIZE) throw new Error('Invalid shielded address');
  return { pubkey, viewingPublicKey: body.slice(32, 64) };
}

export function isShieldedAddress(text: string): boolean {
  try {
    decodeAddress(text);
    return true;
  } catch {
    return false;
  }
}

/** Characters in a complete address: the prefix and 68 bytes in hex. */
export const ADDRESS_LENGTH = ADDRESS_PREFIX.length + 136;

/**
 * What is wrong with a typed shielded address, in words a person can act on (null: nothing). The
 * wallet's form asks this before the confirm step, the API before proving: a typo is caught by
 * the checksum, never sent.
 */
export function shieldedAddressProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return 'Enter the recipient’s shielded address (it starts with bzk1).';
  if (!t.startsWith(ADDRESS_PREFIX)) return 'A shielded address starts with bzk1; this one does not.';
  if (!/^[0-9a-f]*$/.test(t.slice(ADDRESS_PREFIX.length))) return 'A shielded address has only the digits 0–9 and the letters a–f after bzk1; this one has other characters.';
  if (t.length !== ADDRESS_LENGTH) return `A shielded address is ${ADDRESS_LENGTH} characters long; this one has ${t.length}. Copy it again in full.`;
  try {
    decodeAddress(t);
    return null;
  } catch (err) {
    return err instanceof Error && /checksum/.test(err.message) ? 'This shielded address has a typo: its checksum does not match. Copy it again from the recipient.' : 'This is not a valid shielded address. Copy it again from the recipient.';
  }
}
