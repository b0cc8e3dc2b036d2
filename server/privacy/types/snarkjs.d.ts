// Minimal typings for the parts of snarkjs this project uses (the package ships none).
declare module 'snarkjs' {
  type MemFile = { type: 'mem'; data?: Uint8Array };
  type FileLike = string | MemFile | Uint8Array;
  export const groth16: {
    fullProve(
      input: unknown,
      wasm: FileLike,
      zkey: FileLike,
    ): Promise<{ proof: { pi_a: string[]; pi_b: string[][]; pi_c: string[] }; publicSignals: string[] }>;
    prove(zkey: FileLike, witness: FileLike): Promise<{ proof: { pi_a: string[]; pi_b: string[][]; pi_c: string[] }; publicSignals: string[] }>;
    verify(vkey: unknown, publicSignals: string[], proof: unknown): Promise<boolean>;
  };
  export const wtns: {
    calculate(input: unknown, wasm: FileLike, witness: FileLike): Promise<void>;
  };
  export const r1cs: {
    info(r1cs: string): Promise<{ nConstraints: number; nPubInputs: number; nPrvInputs: number; nOutputs: number }>;
  };
  export const zKey: {
    exportVerificationKey(zkey: FileLike): Promise<unknown>;
  };
}
