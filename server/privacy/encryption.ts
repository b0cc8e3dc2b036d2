// Note encryption: ephemeral X25519 → HKDF-SHA256 → XChaCha20-Poly1305 (all @noble).
// Envelope = ephemeral public key (32) || nonce (24) || ciphertext of the 128-byte note + tag (16).
// The associated data binds the ciphertext to its on-chain commitment, the chain and the pool, so
// an envelope cannot be moved to another commitment or deployment; and a decrypted note is
// accepted only if it re-hashes to the commitment the pool recorded.
import { x25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/utils.js';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes, randomBytes } from '@noble/hashes/utils.js';
import type { Address } from 'viem';
import { computeCommitment, type Note } from './note.js';

export const ENVELOPE_BYTES = 32 + 24 + 128 + 16;

export interface NoteContext {
  commitment: bigint;
  chainId: bigint;
  pool: Address;
}

const encoder = new TextEncoder();

function associatedData(ctx: NoteContext): Uint8Array {
  return concatBytes(
    encoder.encode('bureau/note/v1'),
    numberToBytesBE(ctx.commitment, 32),
    numberToBytesBE(ctx.chainId, 32),
    hexToBytes(ctx.pool.slice(2).toLowerCase()),
  );
}

function deriveNoteKey(shared: Uint8Array, ephemeralPublic: Uint8Array, recipientPublic: Uint8Array): Uint8Array {
  return hkdf(sha256, shared, concatBytes(ephemeralPublic, recipientPublic), encoder.encode('bureau/note-key/v1'), 32);
}

function encodeNote(note: Note): Uint8Array {
  return concatBytes(
    numberToBytesBE(note.amount, 32),
    numberToBytesBE(note.pubkey, 32),
    numberToBytesBE(note.blinding, 32),
    numberToBytesBE(note.token, 32),
  );
}

function decodeNote(bytes: Uint8Array): Note {
  const word = (i: number) => bytesToNumberBE(bytes.subarray(i * 32, i * 32 + 32));
  return { amount: word(0), pubkey: word(1), blinding: word(2), token: word(3) };
}

export function encryptNote(note: Note, recipientViewingPublicKey: Uint8Array, ctx: NoteContext): Uint8Array {
  const ephemeralPrivate = x25519.utils.randomSecretKey();
  const ephemeralPublic = x25519.getPublicKey(ephemeralPrivate);
  const shared = x25519.getSharedSecret(ephemeralPrivate, recipientViewingPublicKey);
  const key = deriveNoteKey(shared, ephemeralPublic, recipientViewingPublicKey);
  const nonce = randomBytes(24);
  const ciphertext = xchacha20poly1305(key, nonce, associatedData(ctx)).encrypt(encodeNote(note));
  return concatBytes(ephemeralPublic, nonce, ciphertext);
}

/** The note inside an envelope, or null when it is not for this key or was tampered with. */
export function decryptNote(envelope: Uint8Array, viewingPrivateKey: Uint8Array, ctx: NoteContext): Note | null {
  if (envelope.length !== ENVELOPE_BYTES) return null;
  const ephemeralPublic = envelope.subarray(0, 32);
  const nonce = envelope.subarray(32, 56);
  try {
    const shared = x25519.getSharedSecret(viewingPrivateKey, ephemeralPublic);
    const key = deriveNoteKey(shared, ephemeralPublic, x25519.getPublicKey(viewingPrivateKey));
    return decodeNote(xchacha20poly1305(key, nonce, associatedData(ctx)).decrypt(envelope.subarray(56)));
  } catch {
    // Authentication failure or a low-order ephemeral key: not ours.
    return null;
  }
}

/** Decrypts and accepts the note only if it re-hashes to the on-chain commitment. */
export function openNote(envelope: Uint8Array, viewingPrivateKey: Uint8Array, ctx: NoteContext): Note | null {
  const note = decryptNote(envelope, viewingPrivateKey, ctx);
  if (!note) return null;
  return computeCommitment(note) === ctx.commitment ? note : null;
}
