import { describe, expect, it } from 'vitest';
import { bytesToHex } from '@noble/hashes/utils.js';
import { buildPoseidon } from 'circomlibjs';
import {
  computeCommitment,
  createNote,
  decodeAddress,
  decryptNote,
  deriveKeys,
  encodeAddress,
  encryptNote,
  generateSeed,
  isShieldedAddress,
  openNote,
  toViewingKeys,
  FIELD_SIZE,
} from '../../server/privacy/index.js';
import { hashCommitment, hashNullifier, hashPair, hashPubkey } from '../../server/privacy/hash.js';

const ctx = (commitment: bigint) => ({ commitment, chainId: 31337n, pool: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const });

describe('shielded keys', () => {
  it('derives the same keys from the same seed and different keys from another', () => {
    const seed = generateSeed();
    const a = deriveKeys(seed);
    const b = deriveKeys(Uint8Array.from(seed));
    expect(a.spendingKey).toBe(b.spendingKey);
    expect(bytesToHex(a.viewingPublicKey)).toBe(bytesToHex(b.viewingPublicKey));
    expect(deriveKeys(generateSeed()).spendingKey).not.toBe(a.spendingKey);
    expect(a.spendingKey).toBeLessThan(FIELD_SIZE);
  });

  it('gives a viewing-key holder nothing that yields the spending key', () => {
    const keys = deriveKeys(generateSeed());
    const viewing = toViewingKeys(keys);
    expect(Object.keys(viewing).sort()).toEqual(['pubkey', 'viewingPrivateKey', 'viewingPublicKey']);
    // The viewing key is a separate HKDF output: treating it as a seed or as a spending key
    // does not reproduce the owner's key or pubkey.
    const fromViewing = deriveKeys(viewing.viewingPrivateKey);
    expect(fromViewing.spendingKey).not.toBe(keys.spendingKey);
    const asScalar = BigInt(`0x${bytesToHex(viewing.viewingPrivateKey)}`) % FIELD_SIZE;
    expect(hashPubkey(asScalar)).not.toBe(keys.pubkey);
  });
});

describe('shielded addresses', () => {
  it('round-trips and rejects a mistyped or truncated address', () => {
    const keys = deriveKeys(generateSeed());
    const text = encodeAddress(keys);
    expect(text.startsWith('bzk1')).toBe(true);
    const decoded = decodeAddress(text);
    expect(decoded.pubkey).toBe(keys.pubkey);
    expect(bytesToHex(decoded.viewingPublicKey)).toBe(bytesToHex(keys.viewingPublicKey));

    const i = 20;
    const typo = text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1);
    expect(() => decodeAddress(typo)).toThrow(/checksum/);
    expect(isShieldedAddress(text.slice(0, -2))).toBe(false);
    expect(isShieldedAddress('0x' + text.slice(4))).toBe(false);
  });
});

describe('Poseidon', () => {
  it('matches circomlibjs (the reference the circuit and the on-chain hasher follow)', async () => {
    const poseidon = await buildPoseidon();
    const ref = (xs: bigint[]) => poseidon.F.toObject(poseidon(xs)) as bigint;
    expect(hashPair(1n, 2n)).toBe(ref([1n, 2n]));
    expect(hashPubkey(123n)).toBe(ref([123n]));
    expect(hashCommitment(5n, 6n, 7n, 8n)).toBe(ref([5n, 6n, 7n, 8n]));
    const sig = ref([9n, 10n, 11n]);
    expect(hashNullifier(9n, 10n, 11)).toBe(ref([10n, 11n, sig]));
  });
});

describe('note encryption', () => {
  const alice = deriveKeys(generateSeed());
  const bob = deriveKeys(generateSeed());
  const note = createNote(1234n, bob.pubkey, 0n);
  const commitment = computeCommitment(note);

  it('opens for the recipient and re-hashes to the commitment', () => {
    const envelope = encryptNote(note, bob.viewingPublicKey, ctx(commitment));
    expect(openNote(envelope, bob.viewingPrivateKey, ctx(commitment))).toEqual(note);
  });

  it('rejects a tampered ciphertext', () => {
    const envelope = encryptNote(note, bob.viewingPublicKey, ctx(commitment));
    for (const at of [0, 40, 100, envelope.length - 1]) {
      const tampered = Uint8Array.from(envelope);
      tampered[at] ^= 1;
      expect(decryptNote(tampered, bob.viewingPrivateKey, ctx(commitment))).toBeNull();
    }
  });

  it('rejects the wrong key and a different commitment, chain or pool', () => {
    const envelope = encryptNote(note, bob.viewingPublicKey, ctx(commitment));
    expect(decryptNote(envelope, alice.viewingPrivateKey, ctx(commitment))).toBeNull();
    expect(decryptNote(envelope, bob.viewingPrivateKey, ctx(commitment + 1n))).toBeNull();
    expect(decryptNote(envelope, bob.viewingPrivateKey, { ...ctx(commitment), chainId: 1n })).toBeNull();
    expect(decryptNote(envelope, bob.viewingPrivateKey, { ...ctx(commitment), pool: '0x0000000000000000000000000000000000000001' })).toBeNull();
  });

  it('rejects a forged note whose contents do not hash to the on-chain commitment', () => {
    // The forger encrypts correctly to Bob under a real commitment, but claims a bigger amount.
    const forged = { ...note, amount: 1_000_000n };
    const envelope = encryptNote(forged, bob.viewingPublicKey, ctx(commitment));
    expect(decryptNote(envelope, bob.viewingPrivateKey, ctx(commitment))).toEqual(forged);
    expect(openNote(envelope, bob.viewingPrivateKey, ctx(commitment))).toBeNull();
  });
});
