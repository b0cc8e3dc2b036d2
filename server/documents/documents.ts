import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { FEW_MATCHES, ftsQueryOf, prepared } from '../db/fts.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors.js';
import { assertFolderAccess, folderLevel, visibleFolderIds, type Accessor } from '../folders/index.js';
import { folderOrder } from './placement.js';
import { inspectPdf } from './pdf-info.js';
import { requestTextExtraction } from './extract-texts.js';
import type { listDocumentsQuery, updateDocumentBody } from './schemas.js';
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

/**
 * Documents whose name or text holds every word of `text` (no word at all: none). A few matches:
 * their ids (looked up by key); many: the index's subquery, the entity bound rather than
 * correlated with the outer row, so SQLite matches once rather than once per document.
 */
function matchesSearch(ctx: Context, entityId: string, text: string): SQL {
  const match = ftsQueryOf(text);
  if (match === null) return sql`0`;
  const ids = (prepared(ctx.sqlite, FEW_SQL).all(match, entityId, FEW_MATCHES + 1) as { id: string }[]).map((r) => r.id);
  if (ids.length <= FEW_MATCHES) return ids.length ? inArray(documents.id, ids) : sql`0`;
  return sql`${documents.id} in (select s.document_id from documents_search f join documents_search_docs s on s.doc = f.rowid where documents_search match ${match} and s.entity_id = ${entityId})`;
}

const FEW_SQL = 'select s.document_id as id from documents_search f join documents_search_docs s on s.doc = f.rowid where documents_search match ? and s.entity_id = ? limit ?';

export function listDocuments(ctx: Context, entityId: string, accessor: Accessor, query: z.output<typeof listDocumentsQuery>) {
  const where: (SQL | undefined)[] = [eq(documents.entityId, entityId)];
  if (query.folderId === 'root') where.push(isNull(documents.folderId));
  else if (query.folderId) {
    assertFolderAccess(ctx, entityId, accessor, query.folderId, 'view');
    where.push(eq(documents.folderId, query.folderId));
  }
  if (query.search) where.push(sql`instr(lower(${documents.name}), lower(${query.search})) > 0`);
  if (query.q !== undefined) where.push(matchesSearch(ctx, entityId, query.q));
  const visible = visibleFolderIds(ctx, entityId, accessor);
  if (visible) where.push(visible.size ? or(isNull(documents.folderId), inArray(documents.folderId, [...visible])) : isNull(documents.folderId));
  const order = query.folderId ? folderOrder : [desc(documents.createdAt), desc(documents.id)];
  return ctx.db
    .select()
    .from(documents)
    .where(and(...where))
    .orderBy(...order)
    .all()
    .map(presentDocument);
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
