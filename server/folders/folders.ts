import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors.js';
import { assertFolderAccess, folderAccessMap, type Accessor } from './access.js';
import { folderContents } from './contents.js';
import { DEFAULT_FOLDER_COLOR, type createFolderBody, type updateFolderBody } from './schemas.js';
import { folders } from './tables.js';

type FolderRow = typeof folders.$inferSelect;

function present(f: FolderRow, access: 'view' | 'edit') {
  return { id: f.id, entityId: f.entityId, name: f.name, description: f.description, parentId: f.parentId, color: f.color, icon: f.icon, createdAt: f.createdAt, updatedAt: f.updatedAt, access };
}

export function findFolder(db: Queryable, entityId: string, folderId: string): FolderRow {
  const f = db.select().from(folders).where(and(eq(folders.entityId, entityId), eq(folders.id, folderId))).get();
  if (!f) throw new NotFoundError('Folder not found');
  return f;
}

/** Every folder the caller can see, parents before children are not guaranteed: ordered by name. */
export function listFolders(ctx: Context, entityId: string, accessor: Accessor) {
  const access = folderAccessMap(ctx, entityId, accessor);
  return ctx.db
    .select()
    .from(folders)
    .where(eq(folders.entityId, entityId))
    .orderBy(asc(folders.name), asc(folders.id))
    .all()
    .filter((f) => (access.get(f.id) ?? 'none') !== 'none')
    .map((f) => present(f, access.get(f.id) as 'view' | 'edit'));
}

export function getFolder(ctx: Context, entityId: string, accessor: Accessor, folderId: string) {
  assertFolderAccess(ctx, entityId, accessor, folderId, 'view');
  const level = folderAccessMap(ctx, entityId, accessor).get(folderId) as 'view' | 'edit';
  return present(findFolder(ctx.db, entityId, folderId), level);
}

function assertParent(db: Queryable, entityId: string, parentId: string, movingId?: string): void {
  const parent = db.select().from(folders).where(and(eq(folders.entityId, entityId), eq(folders.id, parentId))).get();
  if (!parent) throw new BadRequestError('parentId is not a folder of this entity');
  if (!movingId) return;
  // Walk up from the new parent: meeting the folder itself means a cycle.
  let cursor: string | null = parentId;
  const seen = new Set<string>();
  while (cursor && !seen.has(cursor)) {
    if (cursor === movingId) throw new BadRequestError('A folder cannot be moved into itself or one of its subfolders');
    seen.add(cursor);
    cursor = db.select({ parentId: folders.parentId }).from(folders).where(and(eq(folders.entityId, entityId), eq(folders.id, cursor))).get()?.parentId ?? null;
  }
}

export function createFolder(ctx: Context, entityId: string, accessor: Accessor, input: z.output<typeof createFolderBody>, userId: string | null) {
  const parentId = input.parentId ?? null;
  if (parentId) {
    assertParent(ctx.db, entityId, parentId);
    assertFolderAccess(ctx, entityId, accessor, parentId, 'edit');
  }
  const now = nowIso(ctx);
  const row: FolderRow = {
    id: ctx.ids.next(),
    entityId,
    name: input.name,
    description: input.description ?? '',
    parentId,
    color: input.color ?? DEFAULT_FOLDER_COLOR,
    icon: input.icon ?? 'folder',
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  };
  ctx.db.insert(folders).values(row).run();
  return getFolder(ctx, entityId, accessor, row.id);
}

export function updateFolder(ctx: Context, entityId: string, accessor: Accessor, folderId: string, input: z.output<typeof updateFolderBody>) {
  findFolder(ctx.db, entityId, folderId);
  assertFolderAccess(ctx, entityId, accessor, folderId, 'edit');
  if (input.parentId) {
    assertParent(ctx.db, entityId, input.parentId, folderId);
    assertFolderAccess(ctx, entityId, accessor, input.parentId, 'edit');
  }
  const { entityId: _e, ...fields } = input;
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  ctx.db
    .update(folders)
    .set({ ...set, updatedAt: nowIso(ctx) })
    .where(and(eq(folders.entityId, entityId), eq(folders.id, folderId)))
    .run();
  return getFolder(ctx, entityId, accessor, folderId);
}

function subtreeIds(db: Queryable, entityId: string, rootId: string): string[] {
  const all = db.select({ id: folders.id, parentId: folders.parentId }).from(folders).where(eq(folders.entityId, entityId)).all();
  const ids = [rootId];
  for (let i = 0; i < ids.length; i++) for (const f of all) if (f.parentId === ids[i] && !ids.includes(f.id)) ids.push(f.id);
  return ids;
}

export function deleteFolder(ctx: Context, entityId: string, accessor: Accessor, folderId: string, recursive: boolean) {
  const folder = findFolder(ctx.db, entityId, folderId);
  assertFolderAccess(ctx, entityId, accessor, folderId, 'edit');
  const ids = subtreeIds(ctx.db, entityId, folderId);
  write(ctx, (tx) => {
    const docs = folderContents().count(tx, entityId, ids);
    if (!recursive && (ids.length > 1 || docs > 0)) {
      throw new ConflictError('Folder is not empty; delete with ?recursive=true to remove its subfolders and move its documents to the parent folder', { subfolders: ids.length - 1, documents: docs });
    }
    folderContents().moveAll(tx, entityId, ids, folder.parentId, nowIso(ctx));
    tx.delete(folders).where(and(eq(folders.entityId, entityId), inArray(folders.id, ids))).run();
  });
  return { deleted: true };
}
