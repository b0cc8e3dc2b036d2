// The checks live in shared/ (pure: the wallet page runs them too); the server's modules keep this path.
export * from '../shared/wallet/address.js';
