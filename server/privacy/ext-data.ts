// External data of a pool transaction: everything outside the proof that moves value or reaches
// the chain. Its hash is a public input, so changing any field (recipient, relayer, fee, notes,
// deadline) invalidates the proof, and the contract hashes in block.chainid and its own address so
// a bundle cannot be replayed on another chain or pool deployment.
import { encodeAbiParameters, keccak256, type Address, type Hex } from 'viem';
import { FIELD_SIZE, toField } from './field.js';

export interface ExtData {
  token: Address;
  recipient: Address;
  /** > 0 shields (deposits), < 0 unshields (withdraws), 0 is a private transfer. */
  extAmount: bigint;
  relayer: Address;
  fee: bigint;
  /** Unix seconds after which the pool refuses the bundle. */
  deadline: bigint;
  /** Per output: the note encrypted to its owner's viewing key. */
  encryptedNotesRecipient: readonly [Hex, Hex];
  /** Per output: the same note encrypted to the sender's viewing key (their history). */
  encryptedNotesSender: readonly [Hex, Hex];
}

export const extDataAbiComponents = [
  { name: 'token', type: 'address' },
  { name: 'recipient', type: 'address' },
  { name: 'extAmount', type: 'int256' },
  { name: 'relayer', type: 'address' },
  { name: 'fee', type: 'uint256' },
  { name: 'deadline', type: 'uint256' },
  { name: 'encryptedNotesRecipient', type: 'bytes[2]' },
  { name: 'encryptedNotesSender', type: 'bytes[2]' },
] as const;

/** Must equal ShieldedPool.hashExtData: keccak256(abi.encode(chainId, pool, extData)) mod p. */
export function hashExtData(chainId: bigint, pool: Address, extData: ExtData): bigint {
  const encoded = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'address' }, { type: 'tuple', components: extDataAbiComponents }],
    [chainId, pool, extData],
  );
  return BigInt(keccak256(encoded)) % FIELD_SIZE;
}

/** publicAmount = extAmount - fee in the field (a withdrawal becomes p - amount). */
export function computePublicAmount(extAmount: bigint, fee: bigint): bigint {
  return toField(extAmount - fee);
}

export function toExtDataArgs(extData: ExtData) {
  return {
    ...extData,
    encryptedNotesRecipient: [...extData.encryptedNotesRecipient] as [Hex, Hex],
    encryptedNotesSender: [...extData.encryptedNotesSender] as [Hex, Hex],
  };
}
