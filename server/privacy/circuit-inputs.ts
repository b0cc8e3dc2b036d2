// Builds the JoinSplit witness input from notes, the tree and the external data. Missing inputs
// are zero-amount dummies (no membership proof needed); missing outputs are zero-amount notes.
import { AMOUNT_LIMIT, FIELD_SIZE, randomFieldElement } from './field.js';
import { computeCommitment, computeNullifier, createNote, type Note, type OwnedNote } from './note.js';
import { hashPubkey } from './hash.js';
import { computePublicAmount } from './ext-data.js';
import type { MerkleTree } from './merkle-tree.js';

export const N_INPUTS = 2;
export const N_OUTPUTS = 2;

/** Public signals in the circuit's order: root, publicAmount, extDataHash, token, nullifiers, commitments. */
export interface PublicSignals {
  root: bigint;
  publicAmount: bigint;
  extDataHash: bigint;
  token: bigint;
  inputNullifiers: [bigint, bigint];
  outputCommitments: [bigint, bigint];
}

export interface CircuitInput {
  [signal: string]: string | string[] | string[][];
}

export interface JoinSplitParams {
  tree: MerkleTree;
  spendingKey: bigint;
  token: bigint;
  inputs: OwnedNote[];
  outputs: Note[];
  extAmount: bigint;
  fee: bigint;
  extDataHash: bigint;
}

export interface JoinSplit {
  input: CircuitInput;
  publicSignals: PublicSignals;
  outputs: [Note, Note];
}

export function flattenPublicSignals(s: PublicSignals): bigint[] {
  return [s.root, s.publicAmount, s.extDataHash, s.token, ...s.inputNullifiers, ...s.outputCommitments];
}

function dummyInput(spendingKey: bigint, token: bigint): OwnedNote {
  const note = { amount: 0n, pubkey: hashPubkey(spendingKey), blinding: randomFieldElement(), token };
  const commitment = computeCommitment(note);
  return { ...note, commitment, leafIndex: 0, nullifier: computeNullifier(spendingKey, commitment, 0) };
}

export function buildJoinSplit(p: JoinSplitParams): JoinSplit {
  if (p.inputs.length > N_INPUTS || p.outputs.length > N_OUTPUTS) throw new Error('At most 2 inputs and 2 outputs');
  const inputs = [...p.inputs];
  while (inputs.length < N_INPUTS) inputs.push(dummyInput(p.spendingKey, p.token));
  const outputs = [...p.outputs];
  while (outputs.length < N_OUTPUTS) outputs.push(createNote(0n, hashPubkey(p.spendingKey), p.token));

  for (const note of [...inputs, ...outputs]) {
    if (note.token !== p.token) throw new Error('All notes of a transaction must be of one token');
    if (note.amount < 0n || note.amount >= AMOUNT_LIMIT) throw new Error('Note amount out of range');
  }
  const sumIn = inputs.reduce((s, n) => s + n.amount, 0n);
  const sumOut = outputs.reduce((s, n) => s + n.amount, 0n);
  if (sumIn + p.extAmount - p.fee !== sumOut) throw new Error('Inputs, public amount and outputs do not balance');

  const paths = inputs.map((n) =>
    n.amount === 0n ? new Array<bigint>(p.tree.depth).fill(0n) : p.tree.path(n.leafIndex).pathElements,
  );
  const publicSignals: PublicSignals = {
    root: p.tree.root,
    publicAmount: computePublicAmount(p.extAmount, p.fee),
    extDataHash: p.extDataHash % FIELD_SIZE,
    token: p.token,
    inputNullifiers: [inputs[0].nullifier, inputs[1].nullifier],
    outputCommitments: [computeCommitment(outputs[0]), computeCommitment(outputs[1])],
  };
  const s = (v: bigint) => v.toString();
  const input: CircuitInput = {
    root: s(publicSignals.root),
    publicAmount: s(publicSignals.publicAmount),
    extDataHash: s(publicSignals.extDataHash),
    token: s(p.token),
    inputNullifier: publicSignals.inputNullifiers.map(s),
    outputCommitment: publicSignals.outputCommitments.map(s),
    inAmount: inputs.map((n) => s(n.amount)),
    inSpendingKey: inputs.map(() => s(p.spendingKey)),
    inBlinding: inputs.map((n) => s(n.blinding)),
    inLeafIndex: inputs.map((n) => String(n.leafIndex)),
    inPathElements: paths.map((path) => path.map(s)),
    outAmount: outputs.map((n) => s(n.amount)),
    outPubkey: outputs.map((n) => s(n.pubkey)),
    outBlinding: outputs.map((n) => s(n.blinding)),
  };
  return { input, publicSignals, outputs: [outputs[0], outputs[1]] };
}
