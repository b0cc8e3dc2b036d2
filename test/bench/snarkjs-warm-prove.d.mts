/** snarkjs.groth16.prove with the zkey in memory and a compiled witness calculator (see the .mjs). */
export function snarkjsWarmProver(wasmPath: string, zkeyPath: string): Promise<(input: unknown) => Promise<{ proof: unknown; publicSignals: string[] }>>;
