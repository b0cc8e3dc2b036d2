import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { getEntity } from '../auth/index.js';
import { ConflictError } from '../http/errors.js';
import { appendAudit, verifyAuditChain } from './audit.js';
import { getSigningCertificate } from './certificate.js';
import { findDocument } from './documents.js';
import { fieldsOf } from './fields.js';
import { queueCompletedMails, queueOwnerMail } from './notify.js';
import { findRequest, signersOf, type RequestMeta } from './requests.js';
import { buildSealedPdf } from './seal.js';
import { fileSignedCopy } from './signed-copy.js';
import { requestTextExtraction } from './extract-texts.js';
import { signatureRequests } from './tables.js';

/**
 * Produces the sealed PDF, marks the request completed and files the sealed PDF back into
 * Documents beside its original. Sealing runs outside the transaction; the commit re-checks the
 * status so two concurrent finishers complete (and file) once.
 */
export async function finalizeRequest(ctx: Context, entityId: string, requestId: string, meta: RequestMeta): Promise<void> {
  const r = findRequest(ctx.db, entityId, requestId);
  const doc = findDocument(ctx.db, entityId, r.documentId);
  const all = signersOf(ctx.db, entityId, requestId);
  const completedAt = ctx.clock.now();
  const { pdf: sealed, pages } = await buildSealedPdf({
    original: ctx.blobs.get(doc.sha256),
    entityName: getEntity(ctx, entityId).name,
    request: { id: r.id, title: r.title, sentAt: r.sentAt, createdByName: r.createdByName },
    document: { name: doc.name, sha256: doc.sha256 },
    signers: all.map((s) => ({ name: s.name, email: s.email, role: s.role, status: s.status, viewedAt: s.viewedAt, signedAt: s.signedAt, signedIp: s.signedIp, signedUserAgent: s.signedUserAgent })),
    fields: fieldsOf(ctx.db, entityId, requestId).map((f) => ({ type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, value: f.value })),
    auditHeadHash: verifyAuditChain(ctx.db, entityId, requestId).headHash,
    certificate: await getSigningCertificate(ctx, entityId),
    completedAt,
  });
  const blob = ctx.blobs.put(sealed);
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    const current = findRequest(tx, entityId, requestId);
    if (current.status !== 'sent') throw new ConflictError(`Cannot complete: the request is ${current.status}`, { status: current.status });
    tx.update(signatureRequests)
      .set({ status: 'completed', completedAt: now, signedSha256: blob.sha256, updatedAt: now })
      .where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.id, requestId)))
      .run();
    const signedDocumentId = fileSignedCopy(tx, current, { sha256: blob.sha256, size: blob.size, pages }, now);
    appendAudit(ctx, tx, { entityId, requestId, type: 'completed', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { signedSha256: blob.sha256, originalSha256: doc.sha256, signedDocumentId } });
    ctx.events.record(tx, { entityId, type: 'signature_request.completed', data: { requestId, title: r.title, documentId: r.documentId, signedSha256: blob.sha256, completedAt: now } });
    const completed = { ...current, status: 'completed' as const, completedAt: now };
    // Signed through the hosted instance's public pages: it mails everyone their signed copy once this completion reaches it.
    if (!current.publicSigning) queueCompletedMails(ctx, tx, completed, all);
    // The creator who is also a recipient gets that "Completed" mail only (one per person).
    queueOwnerMail(ctx, tx, completed, 'completed', '', all.map((s) => s.email));
  });
  // The filed signed copy's text, for search.
  requestTextExtraction(ctx);
}
