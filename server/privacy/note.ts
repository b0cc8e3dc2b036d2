// A shielded note and the values the circuit derives from it, bit for bit.
import { randomFieldElement } from './field.js';
import { hashCommitment, hashNullifier } from './hash.js';

export interface Note {
  amount: bigint;
  /** Owner: Poseidon(spendingKey). */
  pubkey: bigint;
  blinding: bigint;
  /** ERC-20 address as a number; 0 for native ETH. */
  token: bigint;
}

/** A note we own and found in the tree. */
export interface OwnedNote extends Note {
  commitment: bigint;
  leafIndex: number;
  nullifier: bigint;
}

export function createNote(amount: bigint, pubkey: bigint, token: bigint): Note {
  return { amount, pubkey, blinding: randomFieldElement(), token };
}

export function computeCommitment(note: Note): bigint {
  return hashCommitment(note.amount, note.pubkey, note.blinding, note.token);
}

export function computeNullifier(spendingKey: bigint, commitment: bigint, leafIndex: number): bigint {
  return hashNullifier(spendingKey, commitment, leafIndex);
}

export function tokenToField(token: string | undefined): bigint {
  return token ? BigInt(token) : 0n;
}
