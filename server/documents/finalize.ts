import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { getEntity } from '../auth/index.js';
import { verifyAuditChain } from './audit.js';
import { getSigningCertificate } from './certificate.js';
import { findDocument } from './documents.js';
import { fieldsOf } from './fields.js';
import { findRequest, signersOf, type RequestMeta } from './requests.js';
import { buildSealedPdf } from './seal.js';
import { completeRequest } from './signing-core/index.js';
import { desktopCompleterStore } from './signing-store.js';
import { requestTextExtraction } from './extract-texts.js';

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
  // The state change, audit entry and mail are the signing core's; the commit re-checks the status.
  write(ctx, (tx) => {
    const store = desktopCompleterStore(ctx, tx, findRequest(tx, entityId, requestId), { sha256: blob.sha256, size: blob.size, pages }, now);
    completeRequest(store, { signedSha256: blob.sha256, originalSha256: doc.sha256 }, { now, ...meta });
  });
  // The filed signed copy's text, for search.
  requestTextExtraction(ctx);
}
