// The signing core's stores on the desktop: the rows of the request in this device's SQLite, read
// and written inside one transaction (`tx`); the capture triggers queue the changes for sync, and
// the mail goes into this device's outbox in the same transaction.
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable, Tx } from '../db/tx.js';
import { dropQueuedMail } from '../mail/index.js';
import { appendAudit } from './audit.js';
import { findDocument } from './documents.js';
import { fieldsOf } from './fields.js';
import { queueCancelledMail, queueCompletedMails, queueOwnerMail, queueSigningMail } from './notify.js';
import { fileSignedCopy } from './signed-copy.js';
import { findRequest, signersOf } from './requests.js';
import { inviteSigners as inviteInCore, type CompleterStore, type RequestStore, type SenderStore, type SignerRow, type SigningState, type SigningStore } from './signing-core/index.js';
import { signatureFields, signatureRequests, signers, type PageSize } from './tables.js';

type RequestRow = SigningState['r'];

/**
 * The request's changes in `tx`. Guards are checked by the caller's read in the same transaction.
 * `current`: the request with this unit of work's changes so far, which the mail is written for
 * (a request just sent carries the address its links point at).
 */
function requestChanges(ctx: Context, tx: Tx, request: RequestRow): RequestStore & { current(): RequestRow } {
  const { entityId, id: requestId } = request;
  let current = request;
  return {
    request,
    current: () => current,
    updateRequest(patch) {
      tx.update(signatureRequests).set(patch).where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.id, requestId))).run();
      current = { ...current, ...patch };
    },
    appendAudit: (entry) => void appendAudit(ctx, tx, { entityId, requestId, ...entry }),
    recordEvent: (type, data) => void ctx.events.record(tx, { entityId, type, data }),
    tellOwner: (kind, detail) => queueOwnerMail(ctx, tx, request, kind, detail),
  };
}

export function desktopRequestStore(ctx: Context, tx: Tx, request: RequestRow): RequestStore {
  return requestChanges(ctx, tx, request);
}

/** The sender's store: the request as read in `tx` with its signers and fields; signers' mail in this device's outbox. */
export function desktopSenderStore(ctx: Context, tx: Tx, request: RequestRow): SenderStore {
  const changes = requestChanges(ctx, tx, request);
  const { entityId, id: requestId } = request;
  const cancelled = 'The request was cancelled meanwhile';
  return {
    ...changes,
    signers: signersOf(tx, entityId, requestId),
    fields: fieldsOf(tx, entityId, requestId),
    updateSignerOf: (signerId, patch) => void tx.update(signers).set(patch).where(and(eq(signers.entityId, entityId), eq(signers.id, signerId))).run(),
    mailSigner(s, kind) {
      if (kind === 'cancelled') queueCancelledMail(ctx, tx, changes.current(), s);
      else queueSigningMail(ctx, tx, changes.current(), s, kind);
    },
    withdrawMail(s) {
      const neverAsked = dropQueuedMail(tx, entityId, { kind: 'signing_invite', requestId, signerId: s.id }, cancelled) > 0;
      dropQueuedMail(tx, entityId, { kind: 'signing_reminder', requestId, signerId: s.id }, cancelled);
      return neverAsked;
    },
  };
}

/** Completing on this device: `sealed` is the sealed PDF made before the transaction; filed and mailed in `tx`. */
export function desktopCompleterStore(ctx: Context, tx: Tx, request: RequestRow, sealed: { sha256: string; size: number; pages: PageSize[] }, now: string): CompleterStore {
  const all = signersOf(tx, request.entityId, request.id);
  return {
    ...requestChanges(ctx, tx, request),
    signers: all,
    fileSignedCopy: (r) => fileSignedCopy(tx, r, sealed, now),
    mailCompleted: (completed) => queueCompletedMails(ctx, tx, completed, all),
    tellOwnerCompleted: (completed, recipients) => queueOwnerMail(ctx, tx, completed, 'completed', '', recipients),
  };
}

/** The rows one signer's link reaches, read in `tx`. */
export function loadSigningState(tx: Queryable, s: SignerRow): SigningState {
  const r = findRequest(tx, s.entityId, s.requestId);
  return { r, s, all: signersOf(tx, r.entityId, r.id), fields: fieldsOf(tx, r.entityId, r.id), doc: findDocument(tx, r.entityId, r.documentId) };
}

export function desktopSigningStore(ctx: Context, tx: Tx, state: SigningState): SigningStore {
  const { r, s } = state;
  const changes = requestChanges(ctx, tx, r);
  const mail = {
    mailSigner: (o: SignerRow) => void queueSigningMail(ctx, tx, changes.current(), o, 'invite'),
    updateSignerOf: (signerId: string, patch: Partial<SignerRow>) => void tx.update(signers).set(patch).where(and(eq(signers.entityId, r.entityId), eq(signers.id, signerId))).run(),
  };
  return {
    ...changes,
    state,
    updateSigner: (patch) => mail.updateSignerOf(s.id, patch),
    fillFields(values) {
      for (const v of values) tx.update(signatureFields).set({ value: v.value, filledAt: v.filledAt }).where(and(eq(signatureFields.entityId, r.entityId), eq(signatureFields.id, v.id))).run();
    },
    // The next signers are invited as the sender's use cases invite (signing-core/sender-use-cases.ts).
    inviteSigners: (next) => inviteInCore(mail, next, nowIso(ctx)),
  };
}
