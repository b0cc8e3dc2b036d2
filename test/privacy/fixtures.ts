// Shared builders for privacy tests: keys, a tree with real notes, and owned-note records.
import { computeCommitment, computeNullifier, createNote, deriveKeys, generateSeed, MerkleTree, type Note, type OwnedNote, type ShieldedKeys } from '../../server/privacy/index.js';

export function newKeys(): ShieldedKeys {
  return deriveKeys(generateSeed());
}

export function ownNote(keys: ShieldedKeys, note: Note, leafIndex: number): OwnedNote {
  const commitment = computeCommitment(note);
  return { ...note, commitment, leafIndex, nullifier: computeNullifier(keys.spendingKey, commitment, leafIndex) };
}

/** A tree holding `amounts` as notes of `keys` (paired leaves, padded with a zero note). */
export function treeWithNotes(keys: ShieldedKeys, amounts: bigint[], token = 0n): { tree: MerkleTree; notes: OwnedNote[] } {
  const tree = new MerkleTree();
  const notes: OwnedNote[] = [];
  const raw = amounts.map((a) => createNote(a, keys.pubkey, token));
  if (raw.length % 2) raw.push(createNote(0n, keys.pubkey, token));
  for (let i = 0; i < raw.length; i += 2) tree.insertPair(computeCommitment(raw[i]), computeCommitment(raw[i + 1]));
  raw.slice(0, amounts.length).forEach((n, i) => notes.push(ownNote(keys, n, i)));
  return { tree, notes };
}
