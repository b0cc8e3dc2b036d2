import { and, asc, count, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { nameBasedId } from '../db/ids.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import { helpdeskCategories, helpdeskTickets } from './tables.js';

type CategoryRow = typeof helpdeskCategories.$inferSelect;
const present = ({ nameKey: _k, ...c }: CategoryRow) => c;

function findCategory(db: Queryable, entityId: string, categoryId: string): CategoryRow {
  const row = db.select().from(helpdeskCategories).where(and(eq(helpdeskCategories.entityId, entityId), eq(helpdeskCategories.id, categoryId))).get();
  if (!row) throw new NotFoundError('Category not found');
  return row;
}

function assertNameFree(db: Queryable, entityId: string, nameKey: string, exceptId?: string) {
  const row = db.select({ id: helpdeskCategories.id }).from(helpdeskCategories).where(and(eq(helpdeskCategories.entityId, entityId), eq(helpdeskCategories.nameKey, nameKey))).get();
  if (row && row.id !== exceptId) throw new ConflictError('A category with this name already exists');
}

export function listCategories(ctx: Context, entityId: string) {
  return ctx.db.select().from(helpdeskCategories).where(eq(helpdeskCategories.entityId, entityId)).orderBy(asc(helpdeskCategories.nameKey), asc(helpdeskCategories.id)).all().map(present);
}

export function createCategory(ctx: Context, entityId: string, input: { name: string; description?: string | null }) {
  const now = nowIso(ctx);
  const nameKey = input.name.toLowerCase();
  const row: CategoryRow = { id: '', entityId, name: input.name, nameKey, description: input.description ?? null, createdAt: now, updatedAt: now };
  write(ctx, (tx) => {
    assertNameFree(tx, entityId, nameKey);
    // Named by its name, so two devices creating "Billing" apart make one category when they meet;
    // a new id only if that one is still taken here (renamed since).
    const byName = nameBasedId('helpdesk_category', entityId, nameKey);
    row.id = tx.select({ id: helpdeskCategories.id }).from(helpdeskCategories).where(eq(helpdeskCategories.id, byName)).get() ? ctx.ids.next() : byName;
    tx.insert(helpdeskCategories).values(row).run();
  });
  return present(row);
}

export function updateCategory(ctx: Context, entityId: string, categoryId: string, input: { name?: string; description?: string | null }) {
  return write(ctx, (tx) => {
    const row = findCategory(tx, entityId, categoryId);
    const next: CategoryRow = { ...row, updatedAt: nowIso(ctx) };
    if (input.name !== undefined) Object.assign(next, { name: input.name, nameKey: input.name.toLowerCase() });
    if (input.description !== undefined) next.description = input.description;
    assertNameFree(tx, entityId, next.nameKey, categoryId);
    tx.update(helpdeskCategories).set({ name: next.name, nameKey: next.nameKey, description: next.description, updatedAt: next.updatedAt }).where(eq(helpdeskCategories.id, categoryId)).run();
    return present(next);
  });
}

/** A category still used by tickets is not deleted (409): move those tickets first. */
export function deleteCategory(ctx: Context, entityId: string, categoryId: string) {
  return write(ctx, (tx) => {
    findCategory(tx, entityId, categoryId);
    const used = tx.select({ n: count() }).from(helpdeskTickets).where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.categoryId, categoryId))).get()!.n;
    if (used > 0) throw new ConflictError(`Category is used by ${used} ticket${used === 1 ? '' : 's'}; move them to another category first`);
    tx.delete(helpdeskCategories).where(eq(helpdeskCategories.id, categoryId)).run();
    return { deleted: true, id: categoryId };
  });
}
