// Linking an entity to a hosted instance, joining one from another device, and the devices.
import os from 'node:os';
import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { entities, memberships, users, hashPassword, verifyPassword } from '../auth/index.js';
import { BadGatewayError, BadRequestError, ConflictError, HttpError, NotFoundError, RateLimitedError } from '../http/errors.js';
import { callHosted, HostedError, normaliseHostedUrl } from './hosted-client.js';
import { deviceCode, deviceSchema, enrolmentAnswer, hostedInfo, rotatedToken, type ConfirmationSent, type Enrolment, type HostedInfo } from './protocol.js';
import { syncChanges, syncLinks, syncStamps } from './tables.js';
import { enqueueSnapshot, runCycle } from './engine.js';
import { deviceToken, engineOf, linkOf, refreshLinked } from './engine-state.js';
import { waitingChanges } from './waiting.js';
import { z } from 'zod';

/** The hosted instance's refusal, as this API's error: credentials and codes are bad input here (the local session is fine). */
export function fromHosted(err: unknown, what: string): never {
  if (!(err instanceof HostedError)) throw err;
  if (err.status === 0) throw new BadGatewayError(err.message);
  if (err.status === 401) throw new BadRequestError(`${what}: ${err.message}`);
  if (err.status === 426) throw new ConflictError(err.message);
  // The hosted instance's wait, passed on: the person sees how long, a client can honour Retry-After.
  if (err.status === 429) throw new RateLimitedError(err.retryAfterSeconds ?? 60, `${what}: ${err.message}`);
  if (err.status === 400 || err.status === 403 || err.status === 404 || err.status === 409 || err.status === 410) throw new HttpError(err.status, `${what}: ${err.message}`);
  throw new BadGatewayError(`${what}: the hosted instance answered ${err.status} (${err.message})`);
}

function hostedUrlOf(input: string): string {
  const url = normaliseHostedUrl(input);
  if (!url) throw new BadRequestError('hostedUrl must be an http(s) URL without credentials, query or fragment');
  return url;
}

/** The computer's name: what a device is called until someone renames it (Settings → Sync). */
const deviceName = () => (os.hostname().trim() || 'Bureau device').slice(0, 80);

/**
 * Links an entity of this install to a hosted instance and queues all its data for the first push.
 * A hosted account not yet confirmed answers `{confirmation: 'sent'}` (a code went to the e-mail):
 * nothing is linked, and the person repeats with `confirmationCode`.
 */
export async function linkEntityToHosted(ctx: Context, userId: string, input: { entityId: string; hostedUrl: string; email: string; password: string; confirmationCode?: string }): Promise<ConfirmationSent | null> {
  const hostedUrl = hostedUrlOf(input.hostedUrl);
  if (linkOf(ctx, input.entityId)) throw new ConflictError('This entity is already linked');
  const entity = ctx.db.select().from(entities).where(eq(entities.id, input.entityId)).get();
  const user = ctx.db.select().from(users).where(eq(users.id, userId)).get();
  if (!entity || !user) throw new NotFoundError('Entity not found');
  // One credential per person: the hosted account takes the password she signs in with here.
  if (user.passwordHash && !(await verifyPassword(input.password, user.passwordHash))) throw new BadRequestError('Use the password you sign in to Bureau with on this device: your hosted account gets the same one');
  let enrolled: Enrolment;
  let info: HostedInfo;
  try {
    info = await callHosted(hostedUrl, 'GET', '/sync/v1/info', { schema: hostedInfo });
    const answer = await callHosted(hostedUrl, 'POST', '/sync/v1/link', {
      body: { email: input.email, password: input.password, name: user.name, accountId: user.id, entityId: entity.id, entityName: entity.name, deviceName: deviceName(), ...confirming(input) },
      schema: enrolmentAnswer,
    });
    if ('confirmation' in answer) return answer;
    enrolled = answer;
  } catch (err) {
    fromHosted(err, 'Linking failed');
  }
  write(ctx, (tx) => {
    // Linked in the meantime by a concurrent request: keep the first link.
    if (tx.select().from(syncLinks).where(eq(syncLinks.entityId, entity.id)).get()) throw new ConflictError('This entity is already linked');
    tx.insert(syncLinks)
      .values({ entityId: entity.id, hostedUrl, publicUrl: info.publicUrl ?? null, accountId: enrolled.accountId, deviceId: enrolled.deviceId, deviceTokenSealed: ctx.secrets.seal(enrolled.deviceToken), role: enrolled.role, linkedAt: nowIso(ctx) })
      .run();
    for (const m of engineOf(ctx).app.hooks()) m.onLinking?.(ctx, tx, entity.id, enrolled.deviceId);
    enqueueSnapshot(ctx, entity.id);
    // Its public address was just asked for.
    engineOf(ctx).infoChecked.add(entity.id);
    // Captured from here on: nothing can be written between the snapshot and this (one synchronous transaction).
    refreshLinked(ctx);
  });
  await runCycle(ctx, entity.id);
  return null;
}

const confirming = (input: { confirmationCode?: string }) => (input.confirmationCode ? { confirmationCode: input.confirmationCode } : {});

/**
 * Joins an entity from the hosted instance with an add-device code: creates the local user
 * (the hosted account's id) when this install has none for that e-mail, the entity and the
 * membership, then pulls everything. Returns the local user to sign in — or, for an invitation
 * to an address without a confirmed hosted account, `{confirmation: 'sent'}` (repeat with the code).
 */
export async function joinFromHosted(ctx: Context, input: { hostedUrl: string; code: string; email: string; password: string; name?: string; confirmationCode?: string }) {
  const hostedUrl = hostedUrlOf(input.hostedUrl);
  const email = input.email.toLowerCase();
  // Someone who signs in here already under this e-mail joins as herself, with her password here: checked before anything is enrolled.
  const local = ctx.db.select().from(users).where(eq(users.email, email)).get();
  if (local?.passwordHash && !(await verifyPassword(input.password, local.passwordHash))) {
    throw new ConflictError('An account with this e-mail exists on this install: use its password (it becomes your password everywhere), or another e-mail');
  }
  const passwordHash = await hashPassword(input.password);
  let enrolled: Enrolment;
  let info: HostedInfo;
  try {
    // An outdated device learns it before anything is enrolled: nothing half-linked.
    info = await callHosted(hostedUrl, 'GET', '/sync/v1/info', { schema: hostedInfo });
    const answer = await callHosted(hostedUrl, 'POST', '/sync/v1/join', {
      body: { code: input.code, email, password: input.password, ...(input.name ? { name: input.name } : {}), deviceName: deviceName(), ...confirming(input) },
      schema: enrolmentAnswer,
    });
    if ('confirmation' in answer) return answer;
    enrolled = answer;
  } catch (err) {
    fromHosted(err, 'Joining failed');
  }
  const now = nowIso(ctx);
  let userId: string;
  try {
    userId = write(ctx, (tx) => {
      if (tx.select().from(entities).where(eq(entities.id, enrolled.entity.id)).get()) throw new ConflictError('This entity is already on this device');
      const existing = tx.select().from(users).where(eq(users.email, email)).get();
      const idTaken = tx.select().from(users).where(eq(users.id, enrolled.accountId)).get();
      if (idTaken && idTaken.email !== email) throw new ConflictError('Another local user has the id of this account');
      const id = existing?.id ?? enrolled.accountId;
      if (!existing) tx.insert(users).values({ id, email, name: input.name ?? enrolled.accountName, passwordHash, createdAt: now, updatedAt: now }).run();
      tx.insert(entities).values({ id: enrolled.entity.id, name: enrolled.entity.name, createdBy: id, createdAt: now, updatedAt: now }).run();
      tx.insert(memberships).values({ entityId: enrolled.entity.id, userId: id, role: enrolled.role, createdAt: now }).run();
      tx.insert(syncLinks)
        .values({ entityId: enrolled.entity.id, hostedUrl, publicUrl: info.publicUrl ?? null, accountId: enrolled.accountId, deviceId: enrolled.deviceId, deviceTokenSealed: ctx.secrets.seal(enrolled.deviceToken), role: enrolled.role, linkedAt: now })
        .run();
      refreshLinked(ctx);
      engineOf(ctx).infoChecked.add(enrolled.entity.id);
      return id;
    });
  } catch (err) {
    // Nothing half-linked: the device the hosted instance just enrolled is given up.
    await callHosted(hostedUrl, 'DELETE', `/sync/v1/devices/${enrolled.deviceId}`, { token: enrolled.deviceToken }).catch(() => undefined);
    throw err;
  }
  await runCycle(ctx, enrolled.entity.id);
  return { userId, entity: enrolled.entity };
}

/**
 * Unlinks the entity on this device: one last cycle, then this device is revoked on the hosted
 * instance (when reachable) and forgets the link. The data stays here. Changes that could not be
 * pushed refuse the unlink unless `force` (they would never reach the other devices).
 */
export async function unlinkEntity(ctx: Context, entityId: string, force: boolean) {
  const link = linked(ctx, entityId);
  await runCycle(ctx, entityId);
  const waiting = waitingChanges(ctx, entityId);
  if (waiting > 0 && !force) throw new ConflictError(`${waiting} changes have not reached the hosted instance yet; sync first, or unlink with force=true to drop them`, { waiting });
  await callHosted(link.hostedUrl, 'DELETE', `/sync/v1/devices/${link.deviceId}`, { token: deviceToken(ctx, link) }).catch(() => undefined);
  write(ctx, (tx) => {
    tx.delete(syncChanges).where(eq(syncChanges.entityId, entityId)).run();
    tx.delete(syncLinks).where(eq(syncLinks.entityId, entityId)).run();
    refreshLinked(ctx);
  });
}

/**
 * A change the hosted instance refused: `retry` queues it again (in its original place, before
 * later changes); `discard` gives it up — its columns take the hosted instance's values again
 * (their local stamps are forgotten and the log is replayed on the next cycle).
 */
export function settleRejectedChange(ctx: Context, entityId: string, changeId: string, action: 'retry' | 'discard') {
  const where = and(eq(syncChanges.entityId, entityId), eq(syncChanges.changeId, changeId), eq(syncChanges.result, 'rejected'));
  const found = ctx.db.select({ n: syncChanges.localSeq }).from(syncChanges).where(where).get();
  if (!found) throw new NotFoundError('Rejected change not found');
  linked(ctx, entityId);
  if (action === 'discard') {
    write(ctx, (tx) => {
      const change = tx.select().from(syncChanges).where(where).get()!;
      const columns = Object.keys(JSON.parse(change.columns) as Record<string, unknown>);
      tx.delete(syncStamps).where(and(eq(syncStamps.tableName, change.tableName), eq(syncStamps.rowId, change.rowId), inArray(syncStamps.column, columns))).run();
      tx.delete(syncChanges).where(where).run();
      tx.update(syncLinks).set({ cursor: 0, needsSnapshot: true }).where(eq(syncLinks.entityId, entityId)).run();
    });
  } else ctx.db.update(syncChanges).set({ result: null, reason: null, answeredAt: null }).where(where).run();
}

export function linked(ctx: Context, entityId: string) {
  const link = linkOf(ctx, entityId);
  if (!link) throw new ConflictError('This entity is not linked to a hosted instance');
  return link;
}

export async function createAddDeviceCode(ctx: Context, entityId: string) {
  const link = linked(ctx, entityId);
  try {
    return await callHosted(link.hostedUrl, 'POST', '/sync/v1/devices/codes', { token: deviceToken(ctx, link), schema: deviceCode });
  } catch (err) {
    fromHosted(err, 'No code');
  }
}

/**
 * Invites a member of this entity (added under Members) to work on their own install: the
 * hosted instance keeps an invitation for their e-mail and role, and their account takes their
 * id here, so assignments and authorship agree on every device.
 */
export async function inviteMemberToHosted(ctx: Context, entityId: string, userId: string) {
  const link = linked(ctx, entityId);
  const member = ctx.db
    .select({ email: users.email, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.entityId, entityId), eq(memberships.userId, userId)))
    .get();
  if (!member) throw new NotFoundError('Member not found');
  try {
    const invitation = await callHosted(link.hostedUrl, 'POST', '/sync/v1/invitations', { token: deviceToken(ctx, link), body: { email: member.email, name: member.name, role: member.role, accountId: userId }, schema: deviceCode });
    return { ...invitation, hostedUrl: link.hostedUrl, email: member.email, role: member.role };
  } catch (err) {
    fromHosted(err, 'No invitation');
  }
}

export async function listHostedDevices(ctx: Context, entityId: string) {
  const link = linked(ctx, entityId);
  try {
    const list = await callHosted(link.hostedUrl, 'GET', '/sync/v1/devices', { token: deviceToken(ctx, link), schema: z.array(deviceSchema) });
    return list.map((d) => ({ ...d, current: d.id === link.deviceId }));
  } catch (err) {
    fromHosted(err, 'Devices unavailable');
  }
}

export async function revokeHostedDevice(ctx: Context, entityId: string, deviceId: string) {
  const link = linked(ctx, entityId);
  if (deviceId === link.deviceId) throw new BadRequestError('This is the current device; unlink it instead');
  try {
    await callHosted(link.hostedUrl, 'DELETE', `/sync/v1/devices/${deviceId}`, { token: deviceToken(ctx, link) });
  } catch (err) {
    fromHosted(err, 'Revoke failed');
  }
}

export type SyncState = 'synced' | 'pending' | 'syncing' | 'offline' | 'revoked' | 'update_required' | 'clock_skew' | 'error';

/** Clocks further apart than this are shown as a warning (sync still works: stamps are made in hosted time). */
export const CLOCK_WARNING_MS = 60_000;

/** What the UI shows: linked or not, where, the state of the last cycle, the queue and its rejections. */
export function syncStatus(ctx: Context, entityId: string) {
  const link = linkOf(ctx, entityId);
  if (!link) return { linked: false as const, state: 'unlinked' as const };
  const waiting = waitingChanges(ctx, entityId);
  const rejected = ctx.db
    .select()
    .from(syncChanges)
    .where(and(eq(syncChanges.entityId, entityId), eq(syncChanges.result, 'rejected')))
    .orderBy(syncChanges.localSeq)
    .limit(100)
    .all()
    .map((r) => ({ changeId: r.changeId, table: r.tableName, rowId: r.rowId, reason: r.reason ?? '', at: r.answeredAt ?? r.createdAt }));
  const engine = engineOf(ctx);
  const running = engine.running.has(entityId);
  const progress = engine.progress.get(entityId);
  const backoff = engine.backoff.get(entityId);
  const s = link.lastErrorStatus;
  const state: SyncState = running
    ? 'syncing'
    : s === null
      ? waiting > 0
        ? 'pending'
        : 'synced'
      : s === 401
        ? 'revoked'
        : s === 426
          ? 'update_required'
          : s === 409 && /clock skew/i.test(link.lastError ?? '')
            ? 'clock_skew'
            : s === 0
              ? 'offline'
              : 'error';
  const offset = link.serverTimeOffsetMs;
  return {
    linked: true as const,
    state,
    hostedUrl: link.hostedUrl,
    deviceId: link.deviceId,
    role: link.role,
    linkedAt: link.linkedAt,
    lastSyncAt: link.lastSyncAt,
    lastError: link.lastError,
    waiting,
    /** While a cycle runs and has work it can count: what it has done of it. */
    progress: running && progress && progress.total > 0 ? { phase: progress.phase, done: Math.min(progress.done, progress.total), total: progress.total } : null,
    /** This device's synced data of the entity cannot be changed (update required). */
    readOnly: engine.readOnly.has(entityId),
    /** How far this clock is behind (positive) or ahead of (negative) the hosted instance's, when known. */
    clockOffsetMs: offset,
    clockWarning: offset !== null && Math.abs(offset) > CLOCK_WARNING_MS,
    nextAttemptAt: s !== null && backoff ? new Date(backoff.nextAt).toISOString() : null,
    rejected,
  };
}

/**
 * Swaps this device's token for a new one. The new token is stored (sealed) before it is ever
 * used; until its first use the hosted instance still accepts the old one, so a crash between
 * the two steps never locks the device out.
 */
export async function rotateDeviceToken(ctx: Context, entityId: string) {
  const link = linked(ctx, entityId);
  let rotated: z.infer<typeof rotatedToken>;
  try {
    rotated = await callHosted(link.hostedUrl, 'POST', '/sync/v1/devices/rotate', { token: deviceToken(ctx, link), schema: rotatedToken });
  } catch (err) {
    fromHosted(err, 'Rotation failed');
  }
  ctx.db.update(syncLinks).set({ deviceTokenSealed: ctx.secrets.seal(rotated.deviceToken) }).where(eq(syncLinks.entityId, entityId)).run();
  // The first use of the new token retires the old one on the hosted instance.
  await runCycle(ctx, entityId);
}
