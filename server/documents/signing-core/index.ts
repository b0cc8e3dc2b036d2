// The signing core: rules, use cases (the signer's: use-cases.ts; the sender's: sender-use-cases.ts)
// and the audit chain, shared by the desktop and the hosted instance; storage behind the stores of store.ts.
export { GENESIS_HASH, SYSTEM_ACTOR, canonicalJson, hashAuditEntry, nextAuditEntry, type AuditActor, type AuditEntry, type AuditHead, type AuditInput } from './audit-chain.js';
export {
  ACTING_ROLES,
  allSigned,
  assertCanAct,
  assertCompletable,
  assertSendable,
  assertStatus,
  assertTurn,
  inPersonData,
  isOverdue,
  notifiedPatch,
  presentField,
  reminderDue,
  resolveValue,
  signedValues,
  signerActor,
  signersToInvite,
  signersWhoseTurn,
  signingView,
  UnknownSigningLinkError,
} from './rules.js';
export type { CompleterStore, RequestPatch, RequestStore, SenderStore, SignerMailKind, SignerMailStore, SignerPatch, SigningState, SigningStore, StatusGuard } from './store.js';
export type { ClientInfo, DocumentView, FieldRow, RequestRow, SignerRow } from './types.js';
export { declineRequest, expireRequest, recordView, signRequest, type Acting } from './use-cases.js';
export { cancelRequest, completeRequest, inviteSigners, remindRequest, remindSigners, sendRequest, type SenderActing } from './sender-use-cases.js';
