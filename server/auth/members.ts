import { and, asc, eq, isNull, count } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { entityPeople, invitations, memberships, users } from './tables.js';
import type { Role } from '../kernel/permissions.js';
import { randomToken, sha256Hex } from './passwords.js';
import { roleOf } from './entities.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../http/errors.js';

const INVITE_DAYS = 14;

/**
 * The entity's people: its members, and in a linked entity also those the hosted instance lists as
 * removed (their names still resolve here). The state is the hosted instance's where it has one;
 * on an unlinked entity a member without a password yet is invited.
 */
export function listMembers(ctx: Context, entityId: string, opts: { withRemoved?: boolean } = {}) {
  const members = ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt, passwordHash: users.passwordHash, state: entityPeople.state })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(entityPeople, and(eq(entityPeople.entityId, memberships.entityId), eq(entityPeople.userId, memberships.userId)))
    .where(eq(memberships.entityId, entityId))
    .orderBy(asc(memberships.createdAt), asc(users.id))
    .all()
    .map(({ passwordHash, state, ...m }) => {
      const current = state ?? (passwordHash === null ? 'invited' : 'active');
      return { ...m, state: current, pending: current === 'invited' };
    });
  if (!opts.withRemoved) return members;
  const removed = ctx.db
    .select({ userId: entityPeople.userId, email: entityPeople.email, name: entityPeople.name, role: entityPeople.role, joinedAt: entityPeople.joinedAt, removedAt: entityPeople.removedAt })
    .from(entityPeople)
    .where(and(eq(entityPeople.entityId, entityId), eq(entityPeople.state, 'removed')))
    .orderBy(asc(entityPeople.removedAt))
    .all()
    .map(({ removedAt, joinedAt, ...p }) => ({ ...p, joinedAt: joinedAt ?? removedAt ?? '', state: 'removed' as const, pending: false }));
  return [...members, ...removed.filter((p) => !members.some((m) => m.userId === p.userId))];
}

/** Members with an account (an e-mail and a name in the local users table): all of the entity's, or the one user's. */
export function memberAddressesOf(tx: Queryable, entityId: string, userId?: string): { userId: string; email: string; name: string }[] {
  const q = tx.select({ userId: users.id, email: users.email, name: users.name }).from(memberships).innerJoin(users, eq(users.id, memberships.userId));
  return userId ? q.where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId))).all() : q.where(eq(memberships.entityId, entityId)).all();
}

export function getMember(ctx: Context, entityId: string, userId: string) {
  const m = listMembers(ctx, entityId).find((x) => x.userId === userId);
  if (!m) throw new NotFoundError('Member not found');
  return m;
}

/** Only an owner may hand out (or take away) the owner role. */
function assertMayAssign(actorRole: Role | null, role: Role) {
  if (role === 'owner' && actorRole !== 'owner') throw new ForbiddenError('Only an owner can make someone an owner');
}

/**
 * Adds a person by e-mail. An existing user joins at once; a new person gets an account
 * without a password and an invitation token (returned once) to set it.
 */
export function addMember(ctx: Context, entityId: string, actorUserId: string, input: { email: string; role: Role; name?: string }) {
  assertMayAssign(roleOf(ctx, entityId, actorUserId), input.role);
  const now = nowIso(ctx);
  let inviteToken: string | undefined;
  const userId = write(ctx, (tx) => {
    let user = tx.select().from(users).where(eq(users.email, input.email)).get();
    if (!user) {
      user = { id: ctx.ids.next(), email: input.email, name: input.name ?? input.email.split('@')[0], passwordHash: null, createdAt: now, updatedAt: now };
      tx.insert(users).values(user).run();
    }
    const existing = tx.select().from(memberships).where(and(eq(memberships.entityId, entityId), eq(memberships.userId, user.id))).get();
    if (existing) throw new ConflictError('This person is already a member');
    tx.insert(memberships).values({ entityId, userId: user.id, role: input.role, createdAt: now }).run();
    if (user.passwordHash === null) {
      inviteToken = randomToken();
      const expiresAt = new Date(ctx.clock.now().getTime() + INVITE_DAYS * 86_400_000).toISOString();
      tx.insert(invitations).values({ id: ctx.ids.next(), tokenHash: sha256Hex(inviteToken), userId: user.id, entityId, createdAt: now, expiresAt }).run();
    }
    return user.id;
  });
  return { member: getMember(ctx, entityId, userId), ...(inviteToken ? { inviteToken } : {}) };
}

function ownerCount(ctx: Context, entityId: string): number {
  return ctx.db.select({ n: count() }).from(memberships).where(and(eq(memberships.entityId, entityId), eq(memberships.role, 'owner'))).get()!.n;
}

export function changeMemberRole(ctx: Context, entityId: string, actorUserId: string, userId: string, role: Role) {
  const current = getMember(ctx, entityId, userId);
  const actorRole = roleOf(ctx, entityId, actorUserId);
  assertMayAssign(actorRole, role);
  if (current.role === 'owner') {
    assertMayAssign(actorRole, 'owner');
    if (role !== 'owner' && ownerCount(ctx, entityId) === 1) throw new ConflictError('An entity must keep at least one owner');
  }
  ctx.db.update(memberships).set({ role }).where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId))).run();
  return getMember(ctx, entityId, userId);
}

export function removeMember(ctx: Context, entityId: string, actorUserId: string, userId: string) {
  const current = getMember(ctx, entityId, userId);
  if (current.role === 'owner') {
    assertMayAssign(roleOf(ctx, entityId, actorUserId), 'owner');
    if (ownerCount(ctx, entityId) === 1) throw new ConflictError('An entity must keep at least one owner');
  }
  write(ctx, (tx) => {
    tx.delete(memberships).where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId))).run();
    tx.delete(invitations).where(and(eq(invitations.entityId, entityId), eq(invitations.userId, userId), isNull(invitations.acceptedAt))).run();
  });
  return { removed: true };
}
