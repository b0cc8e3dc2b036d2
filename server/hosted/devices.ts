// Entities, members and their devices on the hosted instance: link, add-device codes, join,
// device tokens, revoke.
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { randomToken, sha256Hex } from '../auth/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../http/errors.js';
import { REMOVED_MEMBER_MESSAGE } from '../sync/protocol.js';
import type { DeviceInfo, Enrolment, HostedRole } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { HostedTx } from './store.js';
import { isConfirmationSent, signInExisting, signInOrSignUp } from './accounts.js';
import { signUpRule, type ConfirmationSent } from './signups.js';
import { newCode, normaliseCode } from './codes.js';
import { deviceCodes, devices, entities, invitations, members } from './schema.js';
import { invitationByCode } from './invitations.js';
import { forgetPerson, memberPerson, writeMemberRows, writePeople } from './people.js';

const CODE_MINUTES = 10;
const MANAGERS: HostedRole[] = ['owner', 'admin'];

/** Who a device token speaks for. */
export interface DeviceAuth {
  deviceId: string;
  accountId: string;
  entityId: string;
  role: HostedRole;
}

/** Issues a device token for a member of an entity; only its hash is kept. */
async function enrolDevice(h: HostedContext, tx: HostedTx, input: { entityId: string; entityName: string; accountId: string; accountName: string; role: HostedRole; deviceName: string }): Promise<Enrolment> {
  const deviceToken = `dt_${randomToken(32)}`;
  const deviceId = h.ids.next();
  await tx.insert(devices).values({ id: deviceId, entityId: input.entityId, accountId: input.accountId, name: input.deviceName, tokenHash: sha256Hex(deviceToken), createdAt: serverTime(h) });
  return { serverTime: serverTime(h), accountId: input.accountId, accountName: input.accountName, deviceId, deviceToken, entity: { id: input.entityId, name: input.entityName }, role: input.role };
}

/**
 * Links a desktop entity: the first link creates the hosted entity with this account as owner;
 * linking again (another install of an owner or admin) enrols one more device. Credentials that
 * are no confirmed account's answer "confirmation sent" (see signInOrSignUp): nothing is linked
 * until the address's code comes back.
 */
export async function linkEntity(h: HostedContext, input: { email: string; password: string; name?: string; accountId?: string; confirmationCode?: string; entityId: string; entityName: string; deviceName: string }): Promise<Enrolment | ConfirmationSent> {
  const account = await signInOrSignUp(h, input, await signUpRule(h, input.email, 'link'));
  if (isConfirmationSent(account)) return account;
  return h.store.db.transaction(async (tx) => {
    const now = serverTime(h);
    const inserted = await tx.insert(entities).values({ id: input.entityId, name: input.entityName, createdAt: now }).onConflictDoNothing().returning();
    if (inserted.length > 0) {
      await tx.insert(members).values({ entityId: input.entityId, accountId: account.id, role: 'owner', createdAt: now });
      return enrolDevice(h, tx, { entityId: input.entityId, entityName: input.entityName, accountId: account.id, accountName: account.name, role: 'owner', deviceName: input.deviceName });
    }
    const [entity] = await tx.select().from(entities).where(eq(entities.id, input.entityId));
    const [member] = await tx.select().from(members).where(and(eq(members.entityId, input.entityId), eq(members.accountId, account.id)));
    // The same answer whether the entity is someone else's or ours without the right role: ids of others are not confirmed.
    if (!member || !MANAGERS.includes(member.role)) throw new ForbiddenError('This entity is already linked by someone else; ask an owner for an add-device code');
    return enrolDevice(h, tx, { entityId: entity.id, entityName: entity.name, accountId: account.id, accountName: account.name, role: member.role, deviceName: input.deviceName });
  });
}

/** A single-use, 10-minute code that lets another install of a member join this entity. */
export async function createDeviceCode(h: HostedContext, auth: DeviceAuth): Promise<{ code: string; expiresAt: string }> {
  const { code, shown } = newCode();
  const expiresAt = new Date(h.clock.now().getTime() + CODE_MINUTES * 60_000).toISOString();
  await h.store.db.insert(deviceCodes).values({ codeHash: sha256Hex(code), entityId: auth.entityId, createdBy: auth.accountId, expiresAt });
  return { code: shown, expiresAt };
}

/**
 * Redeems a code on another install: an add-device code (the account must already be a member)
 * or an invitation (for its e-mail; a new account is made as a link makes one — confirmed by a
 * mailed code first — and becomes a member).
 */
export async function joinWithCode(h: HostedContext, input: { code: string; email: string; password: string; name?: string; confirmationCode?: string; deviceName: string }): Promise<Enrolment | ConfirmationSent> {
  const codeHash = sha256Hex(normaliseCode(input.code));
  const now = serverTime(h);
  const invitation = await invitationByCode(h, input.code);
  if (invitation) return acceptInvitation(h, invitation, input);
  const account = await signInExisting(h, input);
  return h.store.db.transaction(async (tx) => {
    const [used] = await tx
      .update(deviceCodes)
      .set({ usedAt: now })
      .where(and(eq(deviceCodes.codeHash, codeHash), isNull(deviceCodes.usedAt), gt(deviceCodes.expiresAt, now)))
      .returning();
    if (!used) throw new BadRequestError('The code is invalid, expired or already used');
    const [member] = await tx.select().from(members).where(and(eq(members.entityId, used.entityId), eq(members.accountId, account.id)));
    if (!member) throw new ForbiddenError('This account is not a member of the entity the code belongs to');
    const [entity] = await tx.select().from(entities).where(eq(entities.id, used.entityId));
    return enrolDevice(h, tx, { entityId: entity.id, entityName: entity.name, accountId: account.id, accountName: account.name, role: member.role, deviceName: input.deviceName });
  });
}

async function acceptInvitation(h: HostedContext, invitation: typeof invitations.$inferSelect, input: { email: string; password: string; name?: string; confirmationCode?: string; deviceName: string }): Promise<Enrolment | ConfirmationSent> {
  // The same answer as for an unknown code: an invitation does not confirm which e-mail it is for.
  if (invitation.email !== input.email) throw new BadRequestError('The code is invalid, expired or already used');
  const credentials = { email: input.email, password: input.password, name: input.name, accountId: invitation.accountId ?? undefined, confirmationCode: input.confirmationCode };
  const account = await signInOrSignUp(h, credentials, await signUpRule(h, input.email, 'invitation'));
  // The invitation waits, unspent, for the confirmed retry.
  if (isConfirmationSent(account)) return account;
  const enrolled = await h.store.db.transaction(async (tx) => {
    const now = serverTime(h);
    // The entity's lock first (as every writer of its log takes it), then the invitation, once.
    await tx.select({ id: entities.id }).from(entities).where(eq(entities.id, invitation.entityId)).for('update');
    const [taken] = await tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.codeHash, invitation.codeHash), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
      .returning();
    if (!taken) throw new ConflictError('This invitation has just been used, withdrawn or renewed; ask for a new one');
    await tx.insert(members).values({ entityId: invitation.entityId, accountId: account.id, role: invitation.role, createdAt: now }).onConflictDoNothing();
    const [member] = await tx.select().from(members).where(and(eq(members.entityId, invitation.entityId), eq(members.accountId, account.id)));
    const [entity] = await tx.select().from(entities).where(eq(entities.id, invitation.entityId));
    // An account that existed under another id than the one invited (made in between): the invited row goes.
    if (invitation.accountId && invitation.accountId !== account.id) await forgetPerson(h, tx, entity.id, invitation.accountId);
    await writeMemberRows(h, tx, entity.id);
    await writePeople(h, tx, entity.id, [await memberPerson(tx, entity.id, account.id, { invitedAt: invitation.createdAt ? new Date(invitation.createdAt).toISOString() : null, joinedAt: now })]);
    return enrolDevice(h, tx, { entityId: entity.id, entityName: entity.name, accountId: account.id, accountName: account.name, role: member.role, deviceName: input.deviceName });
  });
  await h.feed.changed(enrolled.entity.id).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
  return enrolled;
}

/** Who presents this `dt_…` token; revoked devices and removed members are refused. */
export async function authenticateDevice(h: HostedContext, token: string): Promise<DeviceAuth> {
  const hash = sha256Hex(token);
  const [row] = await h.store.db
    .select({ id: devices.id, accountId: devices.accountId, entityId: devices.entityId, tokenHash: devices.tokenHash, previousTokenHash: devices.previousTokenHash, revokedAt: devices.revokedAt, lastSeenAt: devices.lastSeenAt, role: members.role })
    .from(devices)
    .leftJoin(members, and(eq(members.entityId, devices.entityId), eq(members.accountId, devices.accountId)))
    .where(or(eq(devices.tokenHash, hash), eq(devices.previousTokenHash, hash)));
  if (!row) throw new UnauthorizedError('Invalid device token');
  // A removed member's devices are revoked with her membership: they are told why.
  if (row.revokedAt) throw new UnauthorizedError(row.role ? 'This device has been revoked' : REMOVED_MEMBER_MESSAGE);
  if (!row.role) throw new ForbiddenError('The account of this device is no longer a member of the entity');
  const now = serverTime(h);
  // The new token's first use proves the device stored it: the one before it stops working.
  if (row.tokenHash === hash && row.previousTokenHash) await h.store.db.update(devices).set({ previousTokenHash: null }).where(eq(devices.id, row.id));
  // Last seen at minute resolution: no write on every request of a busy device.
  if (!row.lastSeenAt || toIso(row.lastSeenAt).slice(0, 16) !== now.slice(0, 16)) {
    await h.store.db.update(devices).set({ lastSeenAt: now }).where(eq(devices.id, row.id));
  }
  return { deviceId: row.id, accountId: row.accountId, entityId: row.entityId, role: row.role };
}

/**
 * A new token for the calling device. The one it called with keeps working only until the new one
 * is first used (see authenticateDevice); any older one stops at once.
 */
export async function rotateDeviceToken(h: HostedContext, auth: DeviceAuth, presented: string): Promise<{ serverTime: string; deviceId: string; deviceToken: string }> {
  const deviceToken = `dt_${randomToken(32)}`;
  const updated = await h.store.db
    .update(devices)
    .set({ tokenHash: sha256Hex(deviceToken), previousTokenHash: sha256Hex(presented) })
    .where(and(eq(devices.id, auth.deviceId), isNull(devices.revokedAt)))
    .returning({ id: devices.id });
  if (updated.length === 0) throw new UnauthorizedError('This device has been revoked');
  return { serverTime: serverTime(h), deviceId: auth.deviceId, deviceToken };
}

/** Devices of the entity: all of them for owners and admins, one's own for other members. */
export async function listDevices(h: HostedContext, auth: DeviceAuth): Promise<DeviceInfo[]> {
  const where = MANAGERS.includes(auth.role) ? eq(devices.entityId, auth.entityId) : and(eq(devices.entityId, auth.entityId), eq(devices.accountId, auth.accountId));
  const list = await h.store.db.select().from(devices).where(where).orderBy(devices.createdAt, devices.id);
  return list.map((d) => ({ id: d.id, accountId: d.accountId, name: d.name, createdAt: toIso(d.createdAt), lastSeenAt: d.lastSeenAt && toIso(d.lastSeenAt), revokedAt: d.revokedAt && toIso(d.revokedAt) }));
}

/** Revokes a device of the entity: one's own, or any as owner or admin. Idempotent. */
export async function revokeDevice(h: HostedContext, auth: DeviceAuth, deviceId: string): Promise<void> {
  const [target] = await h.store.db.select().from(devices).where(and(eq(devices.id, deviceId), eq(devices.entityId, auth.entityId)));
  if (!target || (target.accountId !== auth.accountId && !MANAGERS.includes(auth.role))) throw new NotFoundError('Device not found');
  if (target.revokedAt) return;
  await h.store.db.update(devices).set({ revokedAt: serverTime(h) }).where(eq(devices.id, deviceId));
}

/** Renames a device of the entity: one's own, or any as owner or admin. */
export async function renameDevice(h: HostedContext, auth: DeviceAuth, deviceId: string, name: string): Promise<DeviceInfo> {
  const [target] = await h.store.db.select().from(devices).where(and(eq(devices.id, deviceId), eq(devices.entityId, auth.entityId)));
  if (!target || (target.accountId !== auth.accountId && !MANAGERS.includes(auth.role))) throw new NotFoundError('Device not found');
  if (target.revokedAt) throw new ConflictError('This device has been revoked');
  await h.store.db.update(devices).set({ name }).where(eq(devices.id, deviceId));
  return (await listDevices(h, auth)).find((d) => d.id === deviceId)!;
}

export function canManage(auth: DeviceAuth): boolean {
  return MANAGERS.includes(auth.role);
}

/** Timestamps come back from PostgreSQL in its own text form; the API speaks ISO-8601 UTC. */
export function toIso(value: string): string {
  return new Date(value).toISOString();
}
