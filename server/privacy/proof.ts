// Groth16 proof formats: snarkjs JSON, the contract's (a, b, c) with G2 coordinates swapped into
// the EVM precompile's order, and a 256-byte hex for transport.
import { decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';

export interface Groth16Proof {
  pi_a: string[];
  pi_b: string[][];
  pi_c: string[];
  protocol?: string;
  curve?: string;
}

export interface SolidityProof {
  a: readonly [bigint, bigint];
  b: readonly [readonly [bigint, bigint], readonly [bigint, bigint]];
  c: readonly [bigint, bigint];
}

export function toSolidityProof(proof: Groth16Proof): SolidityProof {
  const n = BigInt;
  return {
    a: [n(proof.pi_a[0]), n(proof.pi_a[1])],
    b: [
      [n(proof.pi_b[0][1]), n(proof.pi_b[0][0])],
      [n(proof.pi_b[1][1]), n(proof.pi_b[1][0])],
    ],
    c: [n(proof.pi_c[0]), n(proof.pi_c[1])],
  };
}

const proofWords = [{ type: 'uint256[8]' }] as const;

export function encodeProof(p: SolidityProof): Hex {
  return encodeAbiParameters(proofWords, [[p.a[0], p.a[1], p.b[0][0], p.b[0][1], p.b[1][0], p.b[1][1], p.c[0], p.c[1]]]);
}

export function decodeProof(hex: Hex): SolidityProof {
  const [w] = decodeAbiParameters(proofWords, hex);
  return { a: [w[0], w[1]], b: [[w[2], w[3]], [w[4], w[5]]], c: [w[6], w[7]] };
}
