// Shielded-pool client library: keys and addresses, notes and their encryption, the Merkle tree
// mirror, transaction planning, the warm prover, proof encoding and the chain indexer.
export * from './address.js';
export * from './artifacts.js';
export * from './circuit-inputs.js';
export * from './encryption.js';
export * from './ext-data.js';
export * from './field.js';
export * from './indexer.js';
export * from './keys.js';
export * from './merkle-tree.js';
export * from './note.js';
export * from './pool-client.js';
export * from './proof.js';
export * from './relay-bundle.js';
export * from './prove-transaction.js';
export * from './prover.js';
export * from './select-notes.js';
export * from './transaction.js';
export * from './verify.js';
export { shieldedPoolAbi, testTokenAbi } from './contract-abis.js';
