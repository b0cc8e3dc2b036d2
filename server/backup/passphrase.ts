// The recovery passphrase: scrypt turns it into an X25519 key pair. The install keeps only the
// public key (which checks a passphrase, and to which a scheduled backup encrypts its secrets
// with no one present); a restore re-derives the private key from the passphrase typed then.
// Encryption as the shielded notes do it: ephemeral X25519 → HKDF-SHA256 → XChaCha20-Poly1305.
import { x25519 } from '@noble/curves/ed25519.js';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';

export const kdfSchema = z.object({ alg: z.literal('scrypt'), salt: z.string().min(16), N: z.number().int().min(1024).max(2 ** 20), r: z.number().int().min(1).max(32), p: z.number().int().min(1).max(16) });
export type Kdf = z.infer<typeof kdfSchema>;

export const sealedSecretsSchema = z.object({
  kdf: kdfSchema,
  publicKey: z.string(),
  ephemeralPublicKey: z.string(),
  nonce: z.string(),
  ciphertext: z.string(),
});
export type SealedSecrets = z.infer<typeof sealedSecretsSchema>;

export const MIN_PASSPHRASE_LENGTH = 12;
const encoder = new TextEncoder();
const AD = encoder.encode('bureau/backup-secrets/v1');
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64url'));

/** scrypt N = 2^16, r = 8 (64 MiB, about a second): the passphrase is the only lock on a stolen backup. */
export function newKdf(N = 2 ** 16): Kdf {
  return { alg: 'scrypt', salt: b64(randomBytes(16)), N, r: 8, p: 1 };
}

export async function derivePrivateKey(passphrase: string, kdf: Kdf): Promise<Uint8Array> {
  return scryptAsync(passphrase.normalize('NFKC'), unb64(kdf.salt), { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: 32 });
}

export function publicKeyOf(privateKey: Uint8Array): string {
  return b64(x25519.getPublicKey(privateKey));
}

/** Whether `passphrase` is the one whose public key is `publicKey`; the private key when it is. */
export async function checkPassphrase(passphrase: string, kdf: Kdf, publicKey: string): Promise<Uint8Array | null> {
  const priv = await derivePrivateKey(passphrase, kdf);
  return publicKeyOf(priv) === publicKey ? priv : null;
}

function secretsKey(shared: Uint8Array, ephemeralPublic: Uint8Array, recipientPublic: Uint8Array): Uint8Array {
  return hkdf(sha256, shared, concatBytes(ephemeralPublic, recipientPublic), encoder.encode('bureau/backup-key/v1'), 32);
}

export function encryptSecrets(plaintext: Uint8Array, kdf: Kdf, publicKey: string): SealedSecrets {
  const recipient = unb64(publicKey);
  const eph = x25519.utils.randomSecretKey();
  const ephPub = x25519.getPublicKey(eph);
  const key = secretsKey(x25519.getSharedSecret(eph, recipient), ephPub, recipient);
  const nonce = randomBytes(24);
  return { kdf, publicKey, ephemeralPublicKey: b64(ephPub), nonce: b64(nonce), ciphertext: b64(xchacha20poly1305(key, nonce, AD).encrypt(plaintext)) };
}

/** Throws when the envelope was altered (the AEAD tag does not verify). */
export function decryptSecrets(sealed: SealedSecrets, privateKey: Uint8Array): Uint8Array {
  const ephPub = unb64(sealed.ephemeralPublicKey);
  const key = secretsKey(x25519.getSharedSecret(privateKey, ephPub), ephPub, unb64(sealed.publicKey));
  return xchacha20poly1305(key, unb64(sealed.nonce), AD).decrypt(unb64(sealed.ciphertext));
}
