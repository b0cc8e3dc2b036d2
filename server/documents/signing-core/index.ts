// The signing core: rules, use cases and the audit chain, shared by the desktop and the hosted
// instance; storage behind `SigningStore` (store.ts).
export { GENESIS_HASH, SYSTEM_ACTOR, canonicalJson, hashAuditEntry, nextAuditEntry, type AuditActor, type AuditEntry, type AuditHead, type AuditInput } from './audit-chain.js';
export { ACTING_ROLES, allSigned, assertCanAct, assertTurn, inPersonData, isOverdue, presentField, resolveValue, signedValues, signerActor, signersToInvite, signersWhoseTurn, signingView } from './rules.js';
export type { RequestPatch, RequestStore, SignerPatch, SigningState, SigningStore, StatusGuard } from './store.js';
export type { ClientInfo, DocumentView, FieldRow, RequestRow, SignerRow } from './types.js';
export { declineRequest, expireRequest, recordView, signRequest, type Acting } from './use-cases.js';
