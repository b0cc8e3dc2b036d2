// The signing core's store on the desktop: the rows of the request in this device's SQLite, read
// and written inside one transaction (`tx`); the capture triggers queue the changes for sync.
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Queryable, Tx } from '../db/tx.js';
import { appendAudit } from './audit.js';
import { findDocument } from './documents.js';
import { fieldsOf } from './fields.js';
import { queueOwnerMail, queueSigningMail } from './notify.js';
import { findRequest, signersOf } from './requests.js';
import type { RequestStore, SignerRow, SigningState, SigningStore } from './signing-core/index.js';
import { signatureFields, signatureRequests, signers } from './tables.js';

/** The request's changes in `tx`. Guards are checked by the caller's read in the same transaction. */
export function desktopRequestStore(ctx: Context, tx: Tx, request: SigningState['r']): RequestStore {
  const { entityId, id: requestId } = request;
  return {
    request,
    updateRequest: (patch) => void tx.update(signatureRequests).set(patch).where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.id, requestId))).run(),
    appendAudit: (entry) => void appendAudit(ctx, tx, { entityId, requestId, ...entry }),
    recordEvent: (type, data) => void ctx.events.record(tx, { entityId, type, data }),
    tellOwner: (kind, detail) => queueOwnerMail(ctx, tx, request, kind, detail),
  };
}

/** The rows one signer's link reaches, read in `tx`. */
export function loadSigningState(tx: Queryable, s: SignerRow): SigningState {
  const r = findRequest(tx, s.entityId, s.requestId);
  return { r, s, all: signersOf(tx, r.entityId, r.id), fields: fieldsOf(tx, r.entityId, r.id), doc: findDocument(tx, r.entityId, r.documentId) };
}

export function desktopSigningStore(ctx: Context, tx: Tx, state: SigningState): SigningStore {
  const { r, s } = state;
  return {
    ...desktopRequestStore(ctx, tx, r),
    state,
    updateSigner: (patch) => void tx.update(signers).set(patch).where(and(eq(signers.entityId, r.entityId), eq(signers.id, s.id))).run(),
    fillFields(values) {
      for (const v of values) tx.update(signatureFields).set({ value: v.value, filledAt: v.filledAt }).where(and(eq(signatureFields.entityId, r.entityId), eq(signatureFields.id, v.id))).run();
    },
    inviteSigners: (next) => inviteSigners(ctx, tx, r, next),
  };
}

/** Queues each signer's invitation and marks them sent (in `tx`). */
export function inviteSigners(ctx: Context, tx: Tx, r: SigningState['r'], next: SignerRow[]): void {
  const now = nowIso(ctx);
  for (const s of next) {
    queueSigningMail(ctx, tx, r, s, 'invite');
    tx.update(signers).set({ sentAt: now, lastNotifiedAt: now }).where(eq(signers.id, s.id)).run();
  }
}
