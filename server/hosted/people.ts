// The people of an entity, as the hosted instance holds them (accounts, members, invitations),
// written into the entity's own log as rows of `entity_people` — the hosted instance's own
// changes, like a signer's signature — so every device of the entity lists every person with
// name, e-mail, role and state, and keeps its `users` and `memberships` in step.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { ConflictError, ForbiddenError, NotFoundError } from '../http/errors.js';
import type { HostedRole } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { appendHostedChanges, mirroredRow, recordHostedChanges, type HostedChange } from './mirror.js';
import { accounts, devices, invitations, members } from './schema.js';
import type { HostedTx } from './store.js';

export const PEOPLE_TABLE = 'entity_people';
export type PersonState = 'invited' | 'active' | 'removed';

export interface Person {
  accountId: string;
  email: string;
  name: string;
  role: HostedRole;
  state: PersonState;
  invitedAt?: string | null;
  joinedAt?: string | null;
  removedAt?: string | null;
}

const MANAGERS: HostedRole[] = ['owner', 'admin'];

/** The row id of a person's row: the JSON array of its key (entity_id, user_id), as capture writes it. */
export const personRowId = (entityId: string, accountId: string) => JSON.stringify([entityId, accountId]);

/**
 * The person's row as a change: every column, keeping the times of the row already mirrored
 * (a role change does not forget when she joined).
 */
async function personChange(tx: HostedTx, entityId: string, p: Person): Promise<HostedChange> {
  const rowId = personRowId(entityId, p.accountId);
  const before = await mirroredRow(tx, entityId, PEOPLE_TABLE, rowId);
  const keep = (column: string, value: string | null | undefined) => (value !== undefined ? value : ((before?.[column] as string | null | undefined) ?? null));
  return {
    table: PEOPLE_TABLE,
    rowId,
    op: 'upsert',
    columns: {
      entity_id: entityId,
      user_id: p.accountId,
      email: p.email,
      name: p.name,
      role: p.role,
      state: p.state,
      invited_at: keep('invited_at', p.invitedAt),
      joined_at: keep('joined_at', p.joinedAt),
      removed_at: p.state === 'removed' ? keep('removed_at', p.removedAt) : null,
      _deleted: 0,
    },
  };
}

/** Writes the people's rows as one group of the entity's log, inside `tx`. */
export async function writePeople(h: HostedContext, tx: HostedTx, entityId: string, people: Person[]): Promise<void> {
  const changes: HostedChange[] = [];
  for (const p of people) changes.push(await personChange(tx, entityId, p));
  await appendHostedChanges(h, tx, entityId, changes);
}

/**
 * Rows for the members that have none yet. An entity's people enter its log with its first change
 * of people (an invitation, a role change, a removal): until then its only people are the devices'
 * own accounts, which every device already knows from its link or join — and a log that holds only
 * the business's data stays exactly that.
 */
export async function writeMemberRows(h: HostedContext, tx: HostedTx, entityId: string): Promise<void> {
  const list = await tx
    .select({ accountId: members.accountId, email: accounts.email, name: accounts.name, role: members.role, createdAt: members.createdAt })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(eq(members.entityId, entityId));
  const missing: Person[] = [];
  for (const m of list) {
    if (await mirroredRow(tx, entityId, PEOPLE_TABLE, personRowId(entityId, m.accountId))) continue;
    missing.push({ accountId: m.accountId, email: m.email, name: m.name, role: m.role, state: 'active', joinedAt: new Date(m.createdAt).toISOString() });
  }
  await writePeople(h, tx, entityId, missing);
}

/** Drops a person's row (an invitation withdrawn before it was accepted: she never was a member). */
export async function forgetPerson(h: HostedContext, tx: HostedTx, entityId: string, accountId: string): Promise<void> {
  const rowId = personRowId(entityId, accountId);
  if (!(await mirroredRow(tx, entityId, PEOPLE_TABLE, rowId))) return;
  await appendHostedChanges(h, tx, entityId, [{ table: PEOPLE_TABLE, rowId, op: 'upsert', columns: { entity_id: entityId, user_id: accountId, _deleted: 1 } }]);
}

/** A member as a person row (an account and its membership). */
export async function memberPerson(tx: HostedTx, entityId: string, accountId: string, extra: Partial<Person> = {}): Promise<Person> {
  const [row] = await tx
    .select({ email: accounts.email, name: accounts.name, role: members.role, createdAt: members.createdAt })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(and(eq(members.entityId, entityId), eq(members.accountId, accountId)));
  if (!row) throw new NotFoundError('Member not found');
  return { accountId, email: row.email, name: row.name, role: row.role, state: 'active', ...extra };
}

/** Only an owner appoints, demotes or removes an owner; an entity keeps at least one owner. */
async function checkOwnerRules(tx: HostedTx, auth: DeviceAuth, target: { role: HostedRole }, next: HostedRole | null): Promise<void> {
  if (!MANAGERS.includes(auth.role)) throw new ForbiddenError('Only an owner or admin can change members');
  const touchesOwner = target.role === 'owner' || next === 'owner';
  if (touchesOwner && auth.role !== 'owner') throw new ForbiddenError('Only an owner can appoint, change or remove an owner');
  if (target.role === 'owner' && next !== 'owner') {
    const owners = await tx.select({ id: members.accountId }).from(members).where(and(eq(members.entityId, auth.entityId), eq(members.role, 'owner')));
    if (owners.length <= 1) throw new ConflictError('An entity must keep at least one owner');
  }
}

/** The target member, locked for this transaction (two managers changing her at once take turns). */
async function lockedMember(tx: HostedTx, entityId: string, accountId: string) {
  const [member] = await tx.select().from(members).where(and(eq(members.entityId, entityId), eq(members.accountId, accountId))).for('update');
  if (!member) throw new NotFoundError('Member not found');
  return member;
}

/** Changes a member's role on the hosted instance (which enforces it at once) and on every device. */
export async function changeRole(h: HostedContext, auth: DeviceAuth, accountId: string, role: HostedRole): Promise<Person> {
  return recordHostedChanges(h, auth.entityId, async (tx) => {
    const member = await lockedMember(tx, auth.entityId, accountId);
    await checkOwnerRules(tx, auth, member, role);
    await writeMemberRows(h, tx, auth.entityId);
    await tx.update(members).set({ role }).where(and(eq(members.entityId, auth.entityId), eq(members.accountId, accountId)));
    const person = await memberPerson(tx, auth.entityId, accountId);
    await writePeople(h, tx, auth.entityId, [person]);
    return { changes: [], result: person };
  });
}

/**
 * Removes a member: the membership goes, every device of hers for the entity is revoked at once
 * (their next request, and any waiting pull, answers 401), pending invitations of her address are
 * withdrawn, and her row says "removed" on every other device (her name still resolves there).
 */
export async function removePerson(h: HostedContext, auth: DeviceAuth, accountId: string): Promise<Person> {
  return recordHostedChanges(h, auth.entityId, async (tx) => {
    const member = await lockedMember(tx, auth.entityId, accountId);
    await checkOwnerRules(tx, auth, member, null);
    await writeMemberRows(h, tx, auth.entityId);
    const person = await memberPerson(tx, auth.entityId, accountId);
    const now = serverTime(h);
    await tx.delete(members).where(and(eq(members.entityId, auth.entityId), eq(members.accountId, accountId)));
    await tx.update(devices).set({ revokedAt: now }).where(and(eq(devices.entityId, auth.entityId), eq(devices.accountId, accountId), isNull(devices.revokedAt)));
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.entityId, auth.entityId), inArray(invitations.email, [person.email]), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    const removed = { ...person, state: 'removed' as const, removedAt: now };
    await writePeople(h, tx, auth.entityId, [removed]);
    return { changes: [], result: removed };
  });
}
