// Minimal typings for the parts of circomlibjs used by tests and build scripts.
declare module 'circomlibjs' {
  interface Poseidon {
    (inputs: bigint[]): Uint8Array;
    F: { toObject(value: Uint8Array): bigint };
  }
  export function buildPoseidon(): Promise<Poseidon>;
  export const poseidonContract: {
    createCode(nInputs: number): string;
    generateABI(nInputs: number): unknown[];
  };
}
