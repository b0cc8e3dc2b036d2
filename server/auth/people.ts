// The people of a linked entity on this device: the hosted instance's `entity_people` rows, once
// applied, are carried into `users` and `memberships`, so every query that resolves a name or
// checks a permission (assignees, authors, audit, notification recipients) sees every member.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Tx } from '../db/tx.js';
import { entityPeople, memberships, users } from './tables.js';
import { entityLinks } from '../kernel/entity-links.js';

type PersonRow = typeof entityPeople.$inferSelect;

export const PEOPLE_TABLE = 'entity_people';

/** The user id in a people row's id (the JSON array of entity_id and user_id), or null. */
export function personIdOf(rowId: string): string | null {
  try {
    const key = JSON.parse(rowId) as unknown;
    return Array.isArray(key) && typeof key[1] === 'string' ? key[1] : null;
  } catch {
    return null;
  }
}

/**
 * Brings `users` and `memberships` of the entity in step with its people rows: all of them, or
 * only `touched` (user ids whose rows a pull just changed; those no longer there were dropped).
 * A person who signs in on this device (a local password) keeps her own name and e-mail here: a
 * stale row never overwrites them. Her local password hash is never read or sent.
 */
export function applyPeople(ctx: Context, tx: Tx, entityId: string, touched?: string[]): void {
  const where = touched ? and(eq(entityPeople.entityId, entityId), inArray(entityPeople.userId, touched)) : eq(entityPeople.entityId, entityId);
  const rows = touched && touched.length === 0 ? [] : tx.select().from(entityPeople).where(where).all();
  const link = entityLinks().linkOf(tx, entityId);
  for (const person of rows) applyPerson(ctx, tx, entityId, person, link?.accountId ?? null);
  // Rows the hosted instance dropped (an invitation withdrawn before it was accepted): the
  // membership goes, unless the person signs in here (then she is someone this install knows).
  const present = new Set(rows.map((r) => r.userId));
  for (const userId of touched ?? []) {
    if (present.has(userId)) continue;
    const local = tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), isNull(users.passwordHash))).get();
    if (local) tx.delete(memberships).where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId))).run();
  }
}

function applyPerson(ctx: Context, tx: Tx, entityId: string, person: PersonRow, ownAccountId: string | null): void {
  const now = nowIso(ctx);
  const user = tx.select().from(users).where(eq(users.id, person.userId)).get();
  if (!user) {
    const holder = tx.select({ id: users.id }).from(users).where(eq(users.email, person.email)).get();
    if (holder) {
      // Another local person under this e-mail (made here before the entity was linked): left as is.
      ctx.log.warn({ entityId }, 'sync: a member shares an e-mail with another local user; not mirrored');
      return;
    }
    tx.insert(users).values({ id: person.userId, email: person.email, name: person.name, passwordHash: null, createdAt: now, updatedAt: now }).run();
  } else if (user.passwordHash === null && (user.name !== person.name || user.email !== person.email)) {
    const emailFree = user.email === person.email || !tx.select({ id: users.id }).from(users).where(eq(users.email, person.email)).get();
    tx.update(users)
      .set({ name: person.name, ...(emailFree ? { email: person.email } : {}), updatedAt: now })
      .where(eq(users.id, person.userId))
      .run();
  }
  const key = and(eq(memberships.entityId, entityId), eq(memberships.userId, person.userId));
  if (person.state === 'removed') {
    tx.delete(memberships).where(key).run();
    return;
  }
  const existing = tx.select().from(memberships).where(key).get();
  if (!existing) tx.insert(memberships).values({ entityId, userId: person.userId, role: person.role, createdAt: person.joinedAt ?? person.invitedAt ?? now }).run();
  else if (existing.role !== person.role) tx.update(memberships).set({ role: person.role }).where(key).run();
  // This device's own account: the role it shows for the link follows too.
  if (person.userId === ownAccountId) entityLinks().setLinkRole(tx, entityId, person.role);
}
