import { and, eq } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/tx.js';
import { nameBasedId } from '../db/ids.js';
import type { RequestRow } from './requests.js';
import { documents, type PageSize } from './tables.js';

const SIGNED_SUFFIX = ' (signed).pdf';

/** "Lease.pdf" → "Lease (signed).pdf": the filed copy's name and every download of the sealed PDF. */
export function signedName(name: string): string {
  return `${name.replace(/\.pdf$/i, '').slice(0, 200 - SIGNED_SUFFIX.length)}${SIGNED_SUFFIX}`;
}

/**
 * The filed copy's id, derived from the request: whichever device completes the request names
 * the same document, and a second filing finds the first.
 */
export const signedDocumentIdOf = (entityId: string, requestId: string) => nameBasedId('signed_document', entityId, requestId);

/**
 * Files the sealed PDF as a document in its original's folder, linked to the request and the
 * original. Runs inside the transaction that completes the request (which re-checks the status,
 * so it commits once per request): the copy exists exactly when the request is completed, and a
 * copy someone later renames, moves or deletes is left as they made it. The derived id makes a
 * second filing of the same request a no-op.
 */
export function fileSignedCopy(tx: Tx, r: RequestRow, sealed: { sha256: string; size: number; pages: PageSize[] }, now: string): string | null {
  const original = tx.select().from(documents).where(and(eq(documents.entityId, r.entityId), eq(documents.id, r.documentId))).get();
  if (!original) return null;
  const id = signedDocumentIdOf(r.entityId, r.id);
  if (tx.select({ id: documents.id }).from(documents).where(eq(documents.id, id)).get()) return null;
  tx.insert(documents)
    .values({
      id,
      entityId: r.entityId,
      folderId: original.folderId,
      name: signedName(original.name),
      sha256: sealed.sha256,
      size: sealed.size,
      pageCount: sealed.pages.length,
      pages: sealed.pages,
      position: null,
      uploadedBy: null,
      signedFromRequestId: r.id,
      originalDocumentId: original.id,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return id;
}

/** The filed signed copy of a request, while it exists. */
export function signedCopyOf(db: Queryable, entityId: string, requestId: string): string | null {
  return db.select({ id: documents.id }).from(documents).where(and(eq(documents.entityId, entityId), eq(documents.id, signedDocumentIdOf(entityId, requestId)))).get()?.id ?? null;
}
