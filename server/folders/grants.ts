import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nameBasedId } from '../db/ids.js';
import { nowIso } from '../context.js';
import { listMembers } from '../auth/index.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { assertFolderAccess, type Accessor } from './access.js';
import { findFolder } from './folders.js';
import type { addGrantBody, removeGrantBody } from './schemas.js';
import { folderGrants } from './tables.js';

export function listFolderGrants(ctx: Context, entityId: string, accessor: Accessor, folderId: string) {
  findFolder(ctx.db, entityId, folderId);
  assertFolderAccess(ctx, entityId, accessor, folderId, 'view');
  const members = new Map(listMembers(ctx, entityId).map((m) => [m.userId, m]));
  return ctx.db
    .select()
    .from(folderGrants)
    .where(and(eq(folderGrants.entityId, entityId), eq(folderGrants.folderId, folderId)))
    .orderBy(asc(folderGrants.createdAt), asc(folderGrants.id))
    .all()
    .map((g) => {
      const m = g.userId ? members.get(g.userId) : undefined;
      return { id: g.id, folderId: g.folderId, userId: g.userId, role: g.role, name: m?.name ?? null, email: m?.email ?? null, level: g.level, createdAt: g.createdAt };
    });
}

/** Shares the folder; granting the same grantee again changes the level (one grant per grantee). */
export function addFolderGrant(ctx: Context, entityId: string, accessor: Accessor, folderId: string, input: z.output<typeof addGrantBody>, actorId: string | null) {
  findFolder(ctx.db, entityId, folderId);
  assertFolderAccess(ctx, entityId, accessor, folderId, 'edit');
  if (input.userId && !listMembers(ctx, entityId).some((m) => m.userId === input.userId)) throw new BadRequestError('userId is not a member of this entity');
  const grantee = input.userId ? eq(folderGrants.userId, input.userId) : eq(folderGrants.role, input.role!);
  const existing = ctx.db.select().from(folderGrants).where(and(eq(folderGrants.entityId, entityId), eq(folderGrants.folderId, folderId), grantee)).get();
  let id: string;
  if (existing) {
    id = existing.id;
    ctx.db.update(folderGrants).set({ level: input.level }).where(eq(folderGrants.id, id)).run();
  } else {
    // One grant per folder and grantee, on every device: shared from two devices while apart, it is one row.
    id = nameBasedId('folder_grant', folderId, input.userId ? `user:${input.userId}` : `role:${input.role}`);
    ctx.db
      .insert(folderGrants)
      .values({ id, entityId, folderId, userId: input.userId ?? null, role: input.role ?? null, level: input.level, createdBy: actorId, createdAt: nowIso(ctx) })
      .run();
  }
  return listFolderGrants(ctx, entityId, { kind: 'full' }, folderId).find((g) => g.id === id)!;
}

export function removeFolderGrant(ctx: Context, entityId: string, accessor: Accessor, folderId: string, input: z.output<typeof removeGrantBody>) {
  findFolder(ctx.db, entityId, folderId);
  assertFolderAccess(ctx, entityId, accessor, folderId, 'edit');
  const which = input.grantId ? eq(folderGrants.id, input.grantId) : input.userId ? eq(folderGrants.userId, input.userId) : eq(folderGrants.role, input.role!);
  const result = ctx.db.delete(folderGrants).where(and(eq(folderGrants.entityId, entityId), eq(folderGrants.folderId, folderId), which)).run();
  if (result.changes === 0) throw new NotFoundError('Grant not found');
  return { deleted: true, grants: listFolderGrants(ctx, entityId, { kind: 'full' }, folderId) };
}
