import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import type { Accessor } from '../folders/index.js';
import { appendAudit, listAudit, type AuditActor } from './audit.js';
import { getVisibleDocument } from './documents.js';
import type { createRequestBody } from './request-schemas.js';
import { insertSigner } from './insert-signer.js';
import { signedCopyOf } from './signed-copy.js';
import { documents, signatureFields, signatureRequests, signers } from './tables.js';

export type RequestRow = typeof signatureRequests.$inferSelect;
export type SignerRow = typeof signers.$inferSelect;

export interface RequestMeta {
  actor: AuditActor;
  ip?: string | null;
  userAgent?: string | null;
}

export function findRequest(db: Queryable, entityId: string, requestId: string): RequestRow {
  const r = db.select().from(signatureRequests).where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.id, requestId))).get();
  if (!r) throw new NotFoundError('Signature request not found');
  return r;
}

/** The request, if the caller may see its document's folder. */
export function getVisibleRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string): RequestRow {
  const r = findRequest(ctx.db, entityId, requestId);
  try {
    getVisibleDocument(ctx, entityId, accessor, r.documentId);
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError('Signature request not found');
    throw err;
  }
  return r;
}


export function signersOf(db: Queryable, entityId: string, requestId: string): SignerRow[] {
  return db
    .select()
    .from(signers)
    .where(and(eq(signers.entityId, entityId), eq(signers.requestId, requestId)))
    .orderBy(asc(signers.order), asc(signers.createdAt), asc(signers.id))
    .all();
}

// The turn rules live in the signing core (one copy for the desktop and the hosted pages).
export { ACTING_ROLES, assertStatus, signersWhoseTurn } from './signing-core/index.js';

export function presentSigner(s: SignerRow, fieldCount: number) {
  return {
    id: s.id,
    name: s.name,
    email: s.email,
    role: s.role,
    order: s.order,
    status: s.status,
    sentAt: s.sentAt,
    viewedAt: s.viewedAt,
    signedAt: s.signedAt,
    declinedAt: s.declinedAt,
    declineReason: s.declineReason,
    lastNotifiedAt: s.lastNotifiedAt,
    remindersSent: s.remindersSent,
    fieldCount,
  };
}

function documentName(db: Queryable, entityId: string, documentId: string): string {
  return db.select({ name: documents.name }).from(documents).where(and(eq(documents.entityId, entityId), eq(documents.id, documentId))).get()?.name ?? '';
}

export function getRequestDetail(ctx: Context, entityId: string, requestId: string) {
  const r = findRequest(ctx.db, entityId, requestId);
  const counts = new Map(
    ctx.db
      .select({ signerId: signatureFields.signerId, n: count() })
      .from(signatureFields)
      .where(and(eq(signatureFields.entityId, entityId), eq(signatureFields.requestId, requestId)))
      .groupBy(signatureFields.signerId)
      .all()
      .map((c) => [c.signerId, c.n]),
  );
  return {
    id: r.id,
    entityId: r.entityId,
    title: r.title,
    status: r.status,
    documentId: r.documentId,
    documentName: documentName(ctx.db, entityId, r.documentId),
    dueDate: r.dueDate,
    completedAt: r.completedAt,
    createdAt: r.createdAt,
    message: r.message,
    signingOrder: r.signingOrder,
    autoRemind: r.autoRemind,
    publicSigning: r.publicSigning,
    sentAt: r.sentAt,
    cancelledAt: r.cancelledAt,
    declinedAt: r.declinedAt,
    expiredAt: r.expiredAt,
    updatedAt: r.updatedAt,
    signedDocumentSha256: r.signedSha256,
    signedDocumentId: signedCopyOf(ctx.db, entityId, requestId),
    signers: signersOf(ctx.db, entityId, requestId).map((s) => presentSigner(s, counts.get(s.id) ?? 0)),
    auditLog: listAudit(ctx.db, entityId, requestId),
  };
}

export function createSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, input: z.output<typeof createRequestBody>, meta: RequestMeta & { userId: string | null }) {
  try {
    getVisibleDocument(ctx, entityId, accessor, input.documentId);
  } catch (err) {
    if (err instanceof NotFoundError) throw new BadRequestError('documentId is not a document of this entity');
    throw err;
  }
  if (input.dueDate && new Date(input.dueDate).getTime() <= ctx.clock.now().getTime()) throw new BadRequestError('dueDate must be in the future');
  const emails = (input.signers ?? []).map((s) => s.email);
  if (new Set(emails).size !== emails.length) throw new BadRequestError('Each signer needs a different e-mail address');
  const now = nowIso(ctx);
  const id = ctx.ids.next();
  write(ctx, (tx) => {
    tx.insert(signatureRequests)
      .values({
        id,
        entityId,
        documentId: input.documentId,
        title: input.title,
        message: input.message ?? '',
        status: 'draft',
        signingOrder: input.signingOrder,
        dueDate: input.dueDate ? new Date(input.dueDate).toISOString() : null,
        autoRemind: input.autoRemind,
        createdBy: meta.userId,
        createdByName: meta.actor.name,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    appendAudit(ctx, tx, { entityId, requestId: id, type: 'created', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { title: input.title, documentId: input.documentId } });
    for (const s of input.signers ?? []) insertSigner(ctx, tx, entityId, id, s, meta);
  });
  return getRequestDetail(ctx, entityId, id);
}
