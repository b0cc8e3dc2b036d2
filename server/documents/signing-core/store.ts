// The storage the signing use cases run against, one unit of work at a time: the rows read at its
// start and the changes it makes. Implemented for the desktop's SQLite (documents/signing-store.ts)
// and for the hosted instance's mirror (hosted/signing-store.ts), where each change becomes one of
// the hosted instance's own changes in the entity's log. Synchronous on purpose: a better-sqlite3
// transaction cannot await, so the hosted store reads first and writes what was collected after.
import type { AuditInput } from './audit-chain.js';
import type { DocumentView, FieldRow, RequestRow, SignerRow } from './types.js';
import type { EventPayloads, EventType } from '../../events/catalogue.js';

/** A guard on a status move: the store refuses (or the log's guard does) when the row moved on meanwhile. */
export type StatusGuard<S> = { status: S };

export type RequestPatch = Partial<Pick<RequestRow, 'status' | 'sentAt' | 'linkBaseUrl' | 'publicSigning' | 'cancelledAt' | 'completedAt' | 'signedSha256' | 'declinedAt' | 'expiredAt' | 'updatedAt'>>;
export type SignerPatch = Partial<
  Pick<SignerRow, 'status' | 'viewedAt' | 'signedAt' | 'signedIp' | 'signedUserAgent' | 'declinedAt' | 'declineReason' | 'sentAt' | 'lastNotifiedAt' | 'remindersSent' | 'tokenHash'>
>;

/** The changes a use case makes to one request. */
export interface RequestStore {
  readonly request: RequestRow;
  updateRequest(patch: RequestPatch, expect?: StatusGuard<RequestRow['status']>): void;
  /** Appends to the request's audit chain (and moves its head). */
  appendAudit(entry: AuditInput): void;
  /** A domain event (webhooks, notifications). */
  recordEvent<T extends EventType>(type: T, data: EventPayloads[T]): void;
  /** Tells the request's creator it was declined or expired, where that store does (the desktop). */
  tellOwner(kind: 'declined' | 'expired', detail: string): void;
}

/** What one signer's link reaches, read at the start of the unit of work. */
export interface SigningState {
  r: RequestRow;
  s: SignerRow;
  all: SignerRow[];
  fields: FieldRow[];
  doc: DocumentView;
}

/** The changes a use case makes for one signer. */
export interface SigningStore extends RequestStore {
  readonly state: SigningState;
  updateSigner(patch: SignerPatch, expect?: StatusGuard<SignerRow['status']>): void;
  fillFields(values: { id: string; value: string | null; filledAt: string | null }[]): void;
  /** Invites the signers whose turn has now come (their mail; the time they were sent). */
  inviteSigners(next: SignerRow[]): void;
}

/** A signer's mail: their invitation or reminder (with their link), or the notice that the request was cancelled. */
export type SignerMailKind = 'invite' | 'reminder' | 'cancelled';

/** What asking signers to act (an invitation, a reminder) changes: their rows, their mail, the audit chain. */
export interface SignerMailStore {
  updateSignerOf(signerId: string, patch: SignerPatch): void;
  /** Queues the signer's mail, written for the request as it is after this unit of work's changes so far. */
  mailSigner(s: SignerRow, kind: SignerMailKind): void;
  appendAudit(entry: AuditInput): void;
}

/**
 * The changes the sender's use cases (send, cancel, remind) make: the request, its signers and
 * their mail, over the request's signers and fields read at the start of the unit of work.
 */
export interface SenderStore extends RequestStore, SignerMailStore {
  readonly signers: SignerRow[];
  readonly fields: FieldRow[];
  /** Drops the signer's invitation and reminders still waiting in the queue; true when their invitation never went out. */
  withdrawMail(s: SignerRow): boolean;
}

/**
 * What completing a request changes, on a device (the seal key never leaves the owners' devices):
 * the request, the signed copy filed beside the original, and the "Completed" mail.
 */
export interface CompleterStore extends RequestStore {
  readonly signers: SignerRow[];
  /** Files the sealed PDF beside the original document; its document id (null: the original is gone). */
  fileSignedCopy(completed: RequestRow): string | null;
  /** Every recipient's "Completed" mail with their link to the sealed PDF. */
  mailCompleted(completed: RequestRow): void;
  /** Tells the creator (or the owners) that everyone signed; those among `recipients` already get the "Completed" mail. */
  tellOwnerCompleted(completed: RequestRow, recipients: string[]): void;
}
