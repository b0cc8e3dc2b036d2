// The people of a linked entity, changed from this device through the hosted instance (which holds
// accounts and roles): invitations, role changes, removals, device names and the one password a
// person has on all her devices. Each change comes back to every device as the entity's people rows.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { users, hashPassword, verifyPassword, type Role } from '../auth/index.js';
import { BadRequestError } from '../http/errors.js';
import { callHosted, HostedError } from './hosted-client.js';
import { deviceSchema, invitationCreated, invitationSchema, personSchema } from './protocol.js';
import { runCycle } from './engine.js';
import { deviceToken } from './engine-state.js';
import { fromHosted, linked } from './link.js';
import { syncLinks } from './tables.js';

/** Invites a person into the linked entity: the hosted instance mails her the join link; the answer holds the code (once). */
export async function inviteThroughHosted(ctx: Context, entityId: string, input: { email: string; role: Role; name?: string; accountId?: string }) {
  const link = linked(ctx, entityId);
  let created: z.infer<typeof invitationCreated>;
  try {
    created = await callHosted(link.hostedUrl, 'POST', '/sync/v1/invitations', { token: deviceToken(ctx, link), body: input, schema: invitationCreated });
  } catch (err) {
    fromHosted(err, 'No invitation');
  }
  // Her "invited" row comes back through the log: the members list shows her now.
  await runCycle(ctx, entityId);
  return { ...created, hostedUrl: link.hostedUrl };
}

export async function listHostedInvitations(ctx: Context, entityId: string) {
  const link = linked(ctx, entityId);
  try {
    return await callHosted(link.hostedUrl, 'GET', '/sync/v1/invitations', { token: deviceToken(ctx, link), schema: z.array(invitationSchema) });
  } catch (err) {
    fromHosted(err, 'Invitations unavailable');
  }
}

export async function resendHostedInvitation(ctx: Context, entityId: string, invitationId: string) {
  const link = linked(ctx, entityId);
  try {
    const renewed = await callHosted(link.hostedUrl, 'POST', `/sync/v1/invitations/${invitationId}/resend`, { token: deviceToken(ctx, link), schema: invitationCreated });
    return { ...renewed, hostedUrl: link.hostedUrl };
  } catch (err) {
    fromHosted(err, 'Not resent');
  }
}

export async function revokeHostedInvitation(ctx: Context, entityId: string, invitationId: string) {
  const link = linked(ctx, entityId);
  let revoked: z.infer<typeof invitationSchema>;
  try {
    revoked = await callHosted(link.hostedUrl, 'DELETE', `/sync/v1/invitations/${invitationId}`, { token: deviceToken(ctx, link), schema: invitationSchema });
  } catch (err) {
    fromHosted(err, 'Not revoked');
  }
  await runCycle(ctx, entityId);
  return revoked;
}

/** A role change of a linked entity's member: made on the hosted instance, then pulled here like on every device. */
export async function changeRoleThroughHosted(ctx: Context, entityId: string, userId: string, role: Role): Promise<void> {
  const link = linked(ctx, entityId);
  try {
    await callHosted(link.hostedUrl, 'PATCH', `/sync/v1/members/${userId}`, { token: deviceToken(ctx, link), body: { role }, schema: personSchema });
  } catch (err) {
    fromHosted(err, 'Role not changed');
  }
  await runCycle(ctx, entityId);
}

/** Removes a member of a linked entity on the hosted instance (her devices are revoked there at once). */
export async function removeThroughHosted(ctx: Context, entityId: string, userId: string): Promise<void> {
  const link = linked(ctx, entityId);
  if (userId === link.accountId) throw new BadRequestError('You cannot remove yourself; unlink this device, or ask another owner');
  try {
    await callHosted(link.hostedUrl, 'DELETE', `/sync/v1/members/${userId}`, { token: deviceToken(ctx, link), schema: personSchema });
  } catch (err) {
    fromHosted(err, 'Member not removed');
  }
  await runCycle(ctx, entityId);
}

export async function renameHostedDevice(ctx: Context, entityId: string, deviceId: string, name: string) {
  const link = linked(ctx, entityId);
  try {
    const renamed = await callHosted(link.hostedUrl, 'PATCH', `/sync/v1/devices/${deviceId}`, { token: deviceToken(ctx, link), body: { name }, schema: deviceSchema });
    return { ...renamed, current: renamed.id === link.deviceId };
  } catch (err) {
    fromHosted(err, 'Not renamed');
  }
}

/** The links through which this user's hosted account can be reached (her own account on them). */
function accountLinks(ctx: Context, userId: string) {
  return ctx.db.select().from(syncLinks).where(eq(syncLinks.accountId, userId)).all();
}

/**
 * Changes a person's password: checked against this device's hash, then changed on the hosted
 * account first when she has one (so all her devices take it), then here. A hosted refusal
 * changes nothing anywhere.
 */
export async function changePassword(ctx: Context, userId: string, input: { currentPassword: string; newPassword: string }): Promise<void> {
  const user = ctx.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user?.passwordHash || !(await verifyPassword(input.currentPassword, user.passwordHash))) throw new BadRequestError('The current password is wrong');
  const [link] = accountLinks(ctx, userId);
  if (link) {
    try {
      await callHosted(link.hostedUrl, 'POST', '/sync/v1/account/password', { token: deviceToken(ctx, link), body: input });
    } catch (err) {
      fromHosted(err, 'Password not changed');
    }
  }
  ctx.db.update(users).set({ passwordHash: await hashPassword(input.newPassword), updatedAt: nowIso(ctx) }).where(eq(users.id, userId)).run();
}

/**
 * A password this device's hash does not know may be her new one, changed on another device:
 * the hosted account decides, and when it says yes this device keeps a hash of it from now on.
 * Any failure (offline, a refusal) is simply "no": the local sign-in answers as it would have.
 */
export async function passwordChangedElsewhere(ctx: Context, userId: string, password: string): Promise<boolean> {
  for (const link of accountLinks(ctx, userId)) {
    try {
      await callHosted(link.hostedUrl, 'POST', '/sync/v1/account/password/check', { token: deviceToken(ctx, link), body: { password } });
    } catch (err) {
      if (err instanceof HostedError && err.status === 403) return false;
      continue;
    }
    ctx.db.update(users).set({ passwordHash: await hashPassword(password), updatedAt: nowIso(ctx) }).where(eq(users.id, userId)).run();
    return true;
  }
  return false;
}
