import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/tx.js';
import type { Context } from '../context.js';
import { write } from '../db/write.js';
import { BadRequestError } from '../http/errors.js';
import type { FolderContents } from '../folders/index.js';
import { documents } from './tables.js';

/** Manual order first (position), then newest first; id breaks ties. */
export const folderOrder = [sql`${documents.position} is null`, asc(documents.position), desc(documents.createdAt), desc(documents.id)];

export function countDocumentsInFolders(db: Queryable, entityId: string, folderIds: string[]): number {
  if (folderIds.length === 0) return 0;
  return db.select({ id: documents.id }).from(documents).where(and(eq(documents.entityId, entityId), inArray(documents.folderId, folderIds))).all().length;
}

/** Moves every document of `fromIds` into `toFolderId` (null = unfiled); their manual order is reset. */
export function moveDocumentsBetweenFolders(db: Queryable, entityId: string, fromIds: string[], toFolderId: string | null, now: string): void {
  if (fromIds.length === 0) return;
  db.update(documents)
    .set({ folderId: toFolderId, position: null, updatedAt: now })
    .where(and(eq(documents.entityId, entityId), inArray(documents.folderId, fromIds)))
    .run();
}

/** The folder's documents in display order. */
export function orderedDocumentIds(db: Queryable, entityId: string, folderId: string | null): string[] {
  return db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.entityId, entityId), folderId ? eq(documents.folderId, folderId) : isNull(documents.folderId)))
    .orderBy(...folderOrder)
    .all()
    .map((d) => d.id);
}

/**
 * Sets the manual order: listed documents first in the given order, the others after them in
 * their previous order. Any id that is not a document of this folder is a bad request.
 */
export function reorderDocuments(ctx: Context, entityId: string, folderId: string, documentIds: string[], now: string): string[] {
  return write(ctx, (tx) => {
    const current = orderedDocumentIds(tx, entityId, folderId);
    const inFolder = new Set(current);
    const foreign = documentIds.filter((id) => !inFolder.has(id));
    if (foreign.length > 0) throw new BadRequestError('Some documentIds are not documents of this folder', { documentIds: foreign });
    const listed = new Set(documentIds);
    const order = [...documentIds, ...current.filter((id) => !listed.has(id))];
    order.forEach((id, position) => {
      tx.update(documents).set({ position, updatedAt: now }).where(and(eq(documents.entityId, entityId), eq(documents.id, id))).run();
    });
    return order;
  });
}

/** Documents as what folders hold: handed to the folders module at composition (server/modules.ts). */
export const documentsInFolders: FolderContents = { count: countDocumentsInFolders, moveAll: moveDocumentsBetweenFolders, reorder: reorderDocuments };
