// What other modules use of the blob store (files named by their sha256).
export { BlobHasher } from './hasher.js';
export { createBlobStore, type BlobStore } from './store.js';
