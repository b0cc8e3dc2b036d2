// Poseidon over BN254 with circomlib's parameters (poseidon-lite, checked against circomlibjs
// and the on-chain hasher in the tests).
import { poseidon1, poseidon2, poseidon3, poseidon4 } from 'poseidon-lite';

export function hashPubkey(spendingKey: bigint): bigint {
  return poseidon1([spendingKey]);
}

export function hashPair(left: bigint, right: bigint): bigint {
  return poseidon2([left, right]);
}

export function hashCommitment(amount: bigint, pubkey: bigint, blinding: bigint, token: bigint): bigint {
  return poseidon4([amount, pubkey, blinding, token]);
}

export function hashNullifier(spendingKey: bigint, commitment: bigint, leafIndex: number): bigint {
  const signature = poseidon3([spendingKey, commitment, BigInt(leafIndex)]);
  return poseidon3([commitment, BigInt(leafIndex), signature]);
}
