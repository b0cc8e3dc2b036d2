// Shielded keys of an entity. One 32-byte seed yields, through HKDF-SHA256 with distinct labels,
// a spending key (a field element: it owns notes and derives nullifiers) and a separate X25519
// viewing key (it decrypts notes). The viewing key is an independent HKDF output, so holding it
// reveals nothing about the spending key.
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { FIELD_SIZE } from './field.js';
import { hashPubkey } from './hash.js';

export interface ShieldedKeys {
  spendingKey: bigint;
  /** Poseidon(spendingKey): the owner field of a note. */
  pubkey: bigint;
  viewingPrivateKey: Uint8Array;
  viewingPublicKey: Uint8Array;
}

export interface ViewingKeys {
  pubkey: bigint;
  viewingPrivateKey: Uint8Array;
  viewingPublicKey: Uint8Array;
}

const encoder = new TextEncoder();

export function generateSeed(): Uint8Array {
  return randomBytes(32);
}

export function deriveKeys(seed: Uint8Array): ShieldedKeys {
  if (seed.length < 32) throw new Error('Seed must be at least 32 bytes');
  // 48 bytes reduced mod p: bias below 2^-128.
  const spendingKey = bytesToNumberBE(hkdf(sha256, seed, undefined, encoder.encode('bureau/shielded/spending/v1'), 48)) % FIELD_SIZE;
  const viewingPrivateKey = hkdf(sha256, seed, undefined, encoder.encode('bureau/shielded/viewing/v1'), 32);
  return {
    spendingKey,
    pubkey: hashPubkey(spendingKey),
    viewingPrivateKey,
    viewingPublicKey: x25519.getPublicKey(viewingPrivateKey),
  };
}

/** What a watch-only holder gets: enough to find and read notes, not to spend them. */
export function toViewingKeys(keys: ShieldedKeys): ViewingKeys {
  return { pubkey: keys.pubkey, viewingPrivateKey: keys.viewingPrivateKey, viewingPublicKey: keys.viewingPublicKey };
}
