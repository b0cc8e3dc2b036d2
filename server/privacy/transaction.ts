// Plans a pool transaction end to end, short of proving: pads inputs/outputs, encrypts every
// output to its owner and a copy to the sender, builds the external data and its hash, and the
// circuit input. Shield, transfer and unshield are the same operation with a different extAmount.
import { bytesToHex, type Address, type Hex } from 'viem';
import { buildJoinSplit, type JoinSplit } from './circuit-inputs.js';
import { encryptNote } from './encryption.js';
import { hashExtData, type ExtData } from './ext-data.js';
import type { ShieldedKeys } from './keys.js';
import type { MerkleTree } from './merkle-tree.js';
import { computeCommitment, createNote, type Note, type OwnedNote } from './note.js';
import { selectNotes } from './select-notes.js';
import type { ShieldedAddress } from './address.js';

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

export interface PoolContext {
  chainId: bigint;
  pool: Address;
  tree: MerkleTree;
}

export interface PlannedOutput {
  note: Note;
  owner: ShieldedAddress;
}

export interface PlanParams {
  ctx: PoolContext;
  keys: ShieldedKeys;
  token: Address;
  inputs: OwnedNote[];
  outputs: PlannedOutput[];
  extAmount: bigint;
  fee?: bigint;
  recipient?: Address;
  relayer?: Address;
  deadline: bigint;
}

export interface PlannedTransaction {
  joinSplit: JoinSplit;
  extData: ExtData;
  outputs: [Note, Note];
  commitments: [bigint, bigint];
}

export function planTransaction(p: PlanParams): PlannedTransaction {
  const token = BigInt(p.token);
  const self: ShieldedAddress = { pubkey: p.keys.pubkey, viewingPublicKey: p.keys.viewingPublicKey };
  const outputs = [...p.outputs];
  // Padding outputs are zero-value notes to ourselves, indistinguishable on chain from real ones.
  while (outputs.length < 2) outputs.push({ note: createNote(0n, self.pubkey, token), owner: self });
  if (outputs.length > 2) throw new Error('At most 2 outputs');
  const commitments = outputs.map((o) => computeCommitment(o.note)) as [bigint, bigint];
  const seal = (o: PlannedOutput, i: number, to: Uint8Array): Hex =>
    bytesToHex(encryptNote(o.note, to, { commitment: commitments[i], chainId: p.ctx.chainId, pool: p.ctx.pool }));
  const extData: ExtData = {
    token: p.token,
    recipient: p.recipient ?? ZERO_ADDRESS,
    extAmount: p.extAmount,
    relayer: p.relayer ?? ZERO_ADDRESS,
    fee: p.fee ?? 0n,
    deadline: p.deadline,
    encryptedNotesRecipient: [seal(outputs[0], 0, outputs[0].owner.viewingPublicKey), seal(outputs[1], 1, outputs[1].owner.viewingPublicKey)],
    encryptedNotesSender: [seal(outputs[0], 0, self.viewingPublicKey), seal(outputs[1], 1, self.viewingPublicKey)],
  };
  const joinSplit = buildJoinSplit({
    tree: p.ctx.tree,
    spendingKey: p.keys.spendingKey,
    token,
    inputs: p.inputs,
    outputs: outputs.map((o) => o.note),
    extAmount: p.extAmount,
    fee: extData.fee,
    extDataHash: hashExtData(p.ctx.chainId, p.ctx.pool, extData),
  });
  return { joinSplit, extData, outputs: [outputs[0].note, outputs[1].note], commitments };
}

export interface OperationParams {
  ctx: PoolContext;
  keys: ShieldedKeys;
  token: Address;
  amount: bigint;
  deadline: bigint;
}

/** Shield: deposit `amount` into one new note of our own. */
export function planShield(p: OperationParams): PlannedTransaction {
  const self = { pubkey: p.keys.pubkey, viewingPublicKey: p.keys.viewingPublicKey };
  return planTransaction({
    ...p,
    inputs: [],
    outputs: [{ note: createNote(p.amount, self.pubkey, BigInt(p.token)), owner: self }],
    extAmount: p.amount,
  });
}

/** Private transfer: spend our notes, give `amount` to `to`, keep the change. */
export function planTransfer(p: OperationParams & { notes: OwnedNote[]; to: ShieldedAddress; fee?: bigint; relayer?: Address }): PlannedTransaction {
  const fee = p.fee ?? 0n;
  const inputs = selectNotes(p.notes.filter((n) => n.token === BigInt(p.token)), p.amount + fee);
  const change = inputs.reduce((s, n) => s + n.amount, 0n) - p.amount - fee;
  const self = { pubkey: p.keys.pubkey, viewingPublicKey: p.keys.viewingPublicKey };
  const token = BigInt(p.token);
  return planTransaction({
    ...p,
    inputs,
    outputs: [
      { note: createNote(p.amount, p.to.pubkey, token), owner: p.to },
      { note: createNote(change, self.pubkey, token), owner: self },
    ],
    extAmount: 0n,
    fee,
  });
}

/** Unshield: spend our notes, pay `amount` to a public address, keep the change. */
export function planUnshield(p: OperationParams & { notes: OwnedNote[]; recipient: Address; fee?: bigint; relayer?: Address }): PlannedTransaction {
  const fee = p.fee ?? 0n;
  const inputs = selectNotes(p.notes.filter((n) => n.token === BigInt(p.token)), p.amount + fee);
  const change = inputs.reduce((s, n) => s + n.amount, 0n) - p.amount - fee;
  const self = { pubkey: p.keys.pubkey, viewingPublicKey: p.keys.viewingPublicKey };
  return planTransaction({
    ...p,
    inputs,
    outputs: [{ note: createNote(change, self.pubkey, BigInt(p.token)), owner: self }],
    extAmount: -p.amount,
    fee,
  });
}

/**
 * Merge: spend our two largest notes of a token into one note of ours. Only two notes fit in a
 * transaction, so a balance spread over many notes is made spendable by merging first.
 */
export function planMerge(p: Omit<OperationParams, 'amount'> & { notes: OwnedNote[] }): PlannedTransaction {
  const token = BigInt(p.token);
  const inputs = p.notes
    .filter((n) => n.token === token && n.amount > 0n)
    .sort((a, b) => (a.amount > b.amount ? -1 : a.amount < b.amount ? 1 : 0))
    .slice(0, 2);
  if (inputs.length < 2) throw new Error('Nothing to merge');
  const self = { pubkey: p.keys.pubkey, viewingPublicKey: p.keys.viewingPublicKey };
  const total = inputs[0].amount + inputs[1].amount;
  return planTransaction({ ...p, inputs, outputs: [{ note: createNote(total, self.pubkey, token), owner: self }], extAmount: 0n });
}
