import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { type Auth, roleOf, type Role, roleAllows } from '../auth/index.js';
import { ForbiddenError, NotFoundError } from '../http/errors.js';
import { folderGrants, folders } from './tables.js';

export type AccessLevel = 'none' | 'view' | 'edit';

/** Who is asking: the whole entity (API key, owner, admin) or a member limited by grants. */
export type Accessor = { kind: 'full' } | { kind: 'member'; userId: string; role: Role };

export function accessorOf(ctx: Context, entityId: string, auth: Auth | null): Accessor {
  if (!auth || auth.kind === 'apiKey') return { kind: 'full' };
  const role = roleOf(ctx, entityId, auth.userId);
  if (!role) throw new ForbiddenError('Not a member of this entity');
  if (role === 'owner' || role === 'admin') return { kind: 'full' };
  return { kind: 'member', userId: auth.userId, role };
}

const rank: Record<AccessLevel, number> = { none: 0, view: 1, edit: 2 };

function baseLevel(accessor: Accessor): AccessLevel {
  if (accessor.kind === 'full') return 'edit';
  return roleAllows(accessor.role, 'DOCUMENTS.EDIT') ? 'edit' : 'view';
}

/**
 * Effective level on every folder of the entity. The nearest folder (itself or an ancestor)
 * that has grants decides; with none above it, the member's role decides. A level is never
 * above what the role allows.
 */
export function folderAccessMap(ctx: Context, entityId: string, accessor: Accessor): Map<string, AccessLevel> {
  const all = ctx.db.select({ id: folders.id, parentId: folders.parentId }).from(folders).where(eq(folders.entityId, entityId)).all();
  const result = new Map<string, AccessLevel>();
  const base = baseLevel(accessor);
  if (accessor.kind === 'full') {
    for (const f of all) result.set(f.id, 'edit');
    return result;
  }
  const grants = ctx.db.select().from(folderGrants).where(eq(folderGrants.entityId, entityId)).all();
  const grantsByFolder = new Map<string, typeof grants>();
  for (const g of grants) grantsByFolder.set(g.folderId, [...(grantsByFolder.get(g.folderId) ?? []), g]);
  const parentOf = new Map(all.map((f) => [f.id, f.parentId]));
  const levelOf = (id: string, seen: Set<string>): AccessLevel => {
    const known = result.get(id);
    if (known) return known;
    let level: AccessLevel;
    const own = grantsByFolder.get(id);
    if (own) {
      level = own
        .filter((g) => g.userId === accessor.userId || g.role === accessor.role)
        .reduce<AccessLevel>((best, g) => (rank[g.level] > rank[best] ? g.level : best), 'none');
      if (rank[level] > rank[base]) level = base;
    } else {
      const parent = parentOf.get(id);
      level = parent && !seen.has(parent) ? levelOf(parent, seen.add(id)) : base;
    }
    result.set(id, level);
    return level;
  };
  for (const f of all) levelOf(f.id, new Set());
  return result;
}

/** Level on one folder; `null` (top level, unfiled) follows the member's role. */
export function folderLevel(ctx: Context, entityId: string, accessor: Accessor, folderId: string | null): AccessLevel {
  if (folderId === null) return baseLevel(accessor);
  const level = folderAccessMap(ctx, entityId, accessor).get(folderId);
  if (level === undefined) throw new NotFoundError('Folder not found');
  return level;
}

/**
 * Throws unless the accessor has `need` on the folder. A folder the member cannot see at all
 * is reported as not found, so restricted folders are not revealed.
 */
export function assertFolderAccess(ctx: Context, entityId: string, accessor: Accessor, folderId: string | null, need: 'view' | 'edit'): void {
  const level = folderLevel(ctx, entityId, accessor, folderId);
  if (level === 'none') throw new NotFoundError('Folder not found');
  if (rank[level] < rank[need]) throw new ForbiddenError('You have view-only access to this folder');
}

/** Folder ids the accessor may see, or null when nothing is hidden. */
export function visibleFolderIds(ctx: Context, entityId: string, accessor: Accessor): Set<string> | null {
  if (accessor.kind === 'full') return null;
  const map = folderAccessMap(ctx, entityId, accessor);
  return new Set([...map].filter(([, l]) => l !== 'none').map(([id]) => id));
}
