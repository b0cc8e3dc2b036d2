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
