import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors.js';
import { assertFolderAccess, folderLevel, type Accessor } from '../folders/index.js';
import { inspectPdf } from './pdf-info.js';
import { requestTextExtraction } from './extract-texts.js';
import type { updateDocumentBody } from './schemas.js';
import { documents, signatureRequests } from './tables.js';

export type DocumentRow = typeof documents.$inferSelect;

export function presentDocument(d: DocumentRow) {
  return {
    id: d.id,
    entityId: d.entityId,
    folderId: d.folderId,
    name: d.name,
    sha256: d.sha256,
    size: d.size,
    pageCount: d.pageCount,
    pages: d.pages,
    position: d.position,
    uploadedBy: d.uploadedBy,
    signedFromRequestId: d.signedFromRequestId,
    originalDocumentId: d.originalDocumentId,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

export function findDocument(db: Queryable, entityId: string, documentId: string): DocumentRow {
  const d = db.select().from(documents).where(and(eq(documents.entityId, entityId), eq(documents.id, documentId))).get();
  if (!d) throw new NotFoundError('Document not found');
  return d;
}

/** The document, if the caller may see its folder; a hidden folder's document is not found. */
export function getVisibleDocument(ctx: Context, entityId: string, accessor: Accessor, documentId: string, need: 'view' | 'edit' = 'view'): DocumentRow {
  const d = findDocument(ctx.db, entityId, documentId);
  if (folderLevel(ctx, entityId, accessor, d.folderId) === 'none') throw new NotFoundError('Document not found');
  assertFolderAccess(ctx, entityId, accessor, d.folderId, need);
  return d;
}

function cleanName(filename: string | null): string {
  const base = (filename ?? '').split(/[\\/]/).pop()!.trim();
  return (base || 'Untitled.pdf').slice(0, 200);
}

export async function uploadDocument(ctx: Context, entityId: string, accessor: Accessor, input: { data: Buffer; filename: string | null; name?: string; folderId?: string | null }, userId: string | null) {
  const folderId = input.folderId ?? null;
  if (folderId) assertFolderAccess(ctx, entityId, accessor, folderId, 'edit');
  const info = await inspectPdf(input.data);
  const blob = ctx.blobs.put(input.data);
  const now = nowIso(ctx);
  const row: DocumentRow = {
    id: ctx.ids.next(),
    entityId,
    folderId,
    name: input.name ?? cleanName(input.filename),
    sha256: blob.sha256,
    size: blob.size,
    pageCount: info.pageCount,
    pages: info.pages,
    position: null,
    uploadedBy: userId,
    signedFromRequestId: null,
    originalDocumentId: null,
    createdAt: now,
    updatedAt: now,
  };
  write(ctx, (tx) => {
    tx.insert(documents).values(row).run();
    ctx.events.record(tx, { entityId, type: 'document.uploaded', data: { documentId: row.id, name: row.name, sha256: row.sha256, size: row.size, pageCount: row.pageCount, folderId } });
  });
  // Off the request's path: the name is searchable now, the PDF's text once a worker has read it.
  requestTextExtraction(ctx);
  return presentDocument(row);
}

export function updateDocument(ctx: Context, entityId: string, accessor: Accessor, documentId: string, input: z.output<typeof updateDocumentBody>) {
  const d = getVisibleDocument(ctx, entityId, accessor, documentId, 'edit');
  const set: Partial<DocumentRow> = { updatedAt: nowIso(ctx) };
  if (input.name !== undefined) set.name = input.name;
  if (input.folderId !== undefined && input.folderId !== d.folderId) {
    if (input.folderId) {
      try {
        assertFolderAccess(ctx, entityId, accessor, input.folderId, 'edit');
      } catch (err) {
        if (err instanceof NotFoundError) throw new BadRequestError('folderId is not a folder of this entity');
        throw err;
      }
    }
    set.folderId = input.folderId;
    set.position = null;
  }
  ctx.db.update(documents).set(set).where(and(eq(documents.entityId, entityId), eq(documents.id, documentId))).run();
  return presentDocument(findDocument(ctx.db, entityId, documentId));
}

/** A document used by a signature request is kept: the request's audit trail refers to its bytes. */
export function deleteDocument(ctx: Context, entityId: string, accessor: Accessor, documentId: string) {
  getVisibleDocument(ctx, entityId, accessor, documentId, 'edit');
  write(ctx, (tx) => {
    const used = tx.select({ id: signatureRequests.id }).from(signatureRequests).where(and(eq(signatureRequests.entityId, entityId), eq(signatureRequests.documentId, documentId))).get();
    if (used) throw new ConflictError('The document is used by a signature request and cannot be deleted', { requestId: used.id });
    tx.delete(documents).where(and(eq(documents.entityId, entityId), eq(documents.id, documentId))).run();
  });
  return { deleted: true };
}
