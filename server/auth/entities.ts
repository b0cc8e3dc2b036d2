import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { entities, memberships } from './tables.js';
import { ROLE_PERMISSIONS, type Role } from '../kernel/permissions.js';
import { NotFoundError } from '../http/errors.js';

export type EntityRow = typeof entities.$inferSelect;

export function publicEntity(e: EntityRow) {
  return { id: e.id, name: e.name, createdAt: e.createdAt, updatedAt: e.updatedAt };
}

export function listEntitiesOfUser(ctx: Context, userId: string) {
  return ctx.db
    .select({ entity: entities, role: memberships.role })
    .from(memberships)
    .innerJoin(entities, eq(entities.id, memberships.entityId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(entities.createdAt), asc(entities.id))
    .all()
    .map(({ entity, role }) => ({ ...publicEntity(entity), role, permissions: [...ROLE_PERMISSIONS[role]] }));
}

export function getEntity(ctx: Context, entityId: string) {
  const e = ctx.db.select().from(entities).where(eq(entities.id, entityId)).get();
  if (!e) throw new NotFoundError('Entity not found');
  return publicEntity(e);
}

/** The entity's name ('' when there is none), read in the caller's transaction. */
export function entityNameOf(tx: Queryable, entityId: string): string {
  return tx.select({ name: entities.name }).from(entities).where(eq(entities.id, entityId)).get()?.name ?? '';
}

export function createEntity(ctx: Context, userId: string, name: string) {
  const now = nowIso(ctx);
  const entity = { id: ctx.ids.next(), name, createdBy: userId, createdAt: now, updatedAt: now };
  write(ctx, (tx) => {
    tx.insert(entities).values(entity).run();
    tx.insert(memberships).values({ entityId: entity.id, userId, role: 'owner', createdAt: now }).run();
  });
  return { ...publicEntity(entity), role: 'owner' as Role, permissions: [...ROLE_PERMISSIONS.owner] };
}

export function roleOf(ctx: Context, entityId: string, userId: string): Role | null {
  return (
    ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId)))
      .get()?.role ?? null
  );
}
