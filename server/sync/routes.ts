import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import { entityIdField } from '../http/entity-scope.js';
import { UnauthorizedError } from '../http/errors.js';
import { startSession, publicUser, emailSchema, passwordSchema, userSchema, users } from '../auth/index.js';
import { createAddDeviceCode, inviteMemberToHosted, joinFromHosted, settleRejectedChange, unlinkEntity, linkEntityToHosted, listHostedDevices, revokeHostedDevice, rotateDeviceToken, syncStatus } from './link.js';
import { runCycle } from './engine.js';
import { confirmationSent, deviceCode, deviceSchema, invitationCreated, invitationSchema } from './protocol.js';
import { listHostedInvitations, renameHostedDevice, resendHostedInvitation, revokeHostedInvitation } from './people.js';

const tags = ['Sync'];
const manage = { entity: 'QBH' as const, permission: 'SETTINGS.MANAGE' as const };
const view = { entity: 'QBH' as const, permission: 'MEMBERS.VIEW' as const };
const hostedUrl = z.string('must be a string').trim().min(1).max(500).meta({ example: 'https://bureau.example.com' });

const statusSchema = z
  .union([
    z.object({ linked: z.literal(false), state: z.literal('unlinked') }),
    z.object({
      linked: z.literal(true),
      state: z.enum(['synced', 'pending', 'syncing', 'offline', 'revoked', 'update_required', 'clock_skew', 'error']).meta({
        description: '`synced`: nothing waiting; `pending`: local changes wait for the next cycle; `syncing`: a cycle runs now; `offline`: the hosted instance cannot be reached (changes wait); `revoked`: this device was revoked; `update_required`: the hosted instance needs a newer Bureau; `clock_skew`: this clock is over 10 minutes ahead of the hosted instance, or a change from another device is over 10 minutes ahead of this clock; `error`: see lastError.',
      }),
      hostedUrl: z.string(),
      deviceId: z.uuid(),
      role: z.string(),
      linkedAt: z.string(),
      lastSyncAt: z.string().nullable(),
      lastError: z.string().nullable(),
      waiting: z.number().meta({ description: 'Local changes not yet accepted by the hosted instance.' }),
      progress: z
        .object({ phase: z.enum(['push', 'pull', 'snapshot']), done: z.number(), total: z.number() })
        .nullable()
        .meta({ description: 'While a cycle runs ("syncing n of m"): `push` counts local changes sent, `pull` changes received, `snapshot` rows of a first sync received. Null when no cycle runs.' }),
      readOnly: z.boolean().meta({ description: "True while the hosted instance needs a newer Bureau: writes to the entity's synced data answer 423 until this device is updated." }),
      clockOffsetMs: z.number().nullable().meta({ description: "How far the hosted instance's clock is ahead of this device's (ms; negative: this clock is ahead), from its last answer. Stamps are made in hosted time." }),
      clockWarning: z.boolean().meta({ description: 'The clocks differ by more than a minute: the UI asks to set this clock right.' }),
      nextAttemptAt: z.string().nullable().meta({
        description: 'While sync fails: when this device tries again by itself (its backoff, never earlier than a Retry-After the hosted instance sent; a cycle asked for before then does not call it). Null when the last cycle worked.',
      }),
      rejected: z.array(z.object({ changeId: z.uuid(), table: z.string(), rowId: z.string(), reason: z.string(), at: z.string() })),
    }),
  ])
  .meta({ id: 'SyncStatus' });

/** The code the hosted instance mailed to confirm a new account's address (after a 202). */
const confirmationCode = z.string('must be a string').trim().min(6).max(20).optional().meta({ description: 'The code mailed to `email` after a 202: send the same request again with it.', example: 'K7QD-3MZ9' });
const confirmationNote =
  ' When the credentials are no confirmed hosted account (a new address, or a wrong password), the hosted instance answers **202** `{confirmation: "sent", email}` and mails the address (a single-use code valid 30 minutes for a new account; a note to the owner of an existing one): send the same request again with `confirmationCode`. A wrong, expired or used code is 400; 429 with Retry-After when the hosted instance limits failed sign-ins (5 per account, 20 per address, 15 minutes).';

const confirmationAnswer = confirmationSent.meta({ id: 'ConfirmationSent', description: '202: confirm the address, then repeat the request with `confirmationCode`.' });

const sessionOnly = (auth: { kind: string; userId?: string } | null) => {
  if (auth?.kind !== 'session' || !auth.userId) throw new UnauthorizedError('A signed-in session is required');
  return auth.userId;
};

export const syncRoutes: RouteDef[] = [
  route(
    {
      method: 'post',
      path: '/api/sync/link',
      summary: 'Link the entity to a hosted instance and push everything',
      description:
        'Signs in to the hosted instance with `email` and `password` (creating the hosted account on first use, once its address is confirmed; the password is hashed there, the local hash never travels), registers this device, and queues every row of the synced tables for the first push. Session only (owner or admin). 400 for wrong hosted credentials or a bad URL, 403 when another account already linked this entity, 409 when already linked, 502 when the hosted instance cannot be reached — nothing is half-linked.' +
        confirmationNote,
      tags,
      access: manage,
      body: z.strictObject({ entityId: entityIdField, hostedUrl, email: emailSchema, password: z.string().min(1).max(200), confirmationCode }),
      response: z.union([statusSchema, confirmationAnswer]),
      status: 201,
      alsoAnswers: { 202: { description: 'The hosted instance asks to confirm the address first: repeat the request with `confirmationCode`', schema: confirmationAnswer } },
      errors: { 409: 'Already linked', 429: 'Too many failed sign-ins on the hosted instance', 502: 'Hosted instance unreachable or failing' },
    },
    async ({ ctx, entityId, auth, body, setStatus }) => {
      const confirmation = await linkEntityToHosted(ctx, sessionOnly(auth), { ...body, entityId });
      if (confirmation) {
        setStatus(202);
        return confirmation;
      }
      return syncStatus(ctx, entityId);
    },
  ),
  route(
    {
      method: 'delete',
      path: '/api/sync/link',
      summary: 'Unlink the entity on this device',
      description:
        'Runs one last sync cycle, revokes this device on the hosted instance (when reachable) and forgets the link; the data stays on this device and on the hosted instance. 409 while local changes have not reached the hosted instance, unless `force=true` (they are then dropped).',
      tags,
      access: manage,
      query: z.object({ entityId: entityIdField, force: z.enum(['true', 'false']).optional() }),
      errors: { 409: 'Not linked, or changes still waiting' },
    },
    ({ ctx, entityId, query }) => unlinkEntity(ctx, entityId, query.force === 'true'),
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/rejected/{changeId}/retry',
      summary: 'Queue a rejected change again',
      description: 'It is pushed again in its original place, before later changes (useful once what made the hosted instance refuse it has changed).',
      tags,
      access: manage,
      params: z.object({ changeId: z.uuid('must be a UUID') }),
      body: z.strictObject({ entityId: entityIdField }),
    },
    ({ ctx, entityId, params }) => settleRejectedChange(ctx, entityId, params.changeId, 'retry'),
  ),
  route(
    {
      method: 'delete',
      path: '/api/sync/rejected/{changeId}',
      summary: 'Discard a rejected change',
      description: 'This device keeps its value; the other devices never receive it.',
      tags,
      access: manage,
      params: z.object({ changeId: z.uuid('must be a UUID') }),
    },
    ({ ctx, entityId, params }) => settleRejectedChange(ctx, entityId, params.changeId, 'discard'),
  ),
  route(
    { method: 'get', path: '/api/sync/status', summary: 'Sync state of the entity', tags, access: view, query: z.object({ entityId: entityIdField }), response: statusSchema },
    ({ ctx, entityId }) => syncStatus(ctx, entityId),
  ),
  route(
    { method: 'post', path: '/api/sync/run', summary: 'Run one sync cycle now (push, then pull)', tags, access: view, body: z.strictObject({ entityId: entityIdField }), response: statusSchema, errors: { 409: 'Not linked' } },
    async ({ ctx, entityId }) => {
      await runCycle(ctx, entityId);
      return syncStatus(ctx, entityId);
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/devices/code',
      summary: 'A single-use, 10-minute code to add a device',
      description: 'Another install of a member of this entity redeems it with `POST /api/sync/join`.',
      tags,
      access: manage,
      body: z.strictObject({ entityId: entityIdField }),
      response: deviceCode,
      status: 201,
    },
    ({ ctx, entityId }) => createAddDeviceCode(ctx, entityId),
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/invitations',
      summary: 'Invite a member to work on their own install',
      description:
        'For a member added under Members: the hosted instance keeps an invitation (7 days, single use) for their e-mail and role. The hosted instance mails them a link to its join page when it has SMTP; otherwise give them the hosted URL and the code. They choose "Accept an invitation" on their install. Their account takes their id here, so assignments agree on every device.',
      tags,
      access: manage,
      body: z.strictObject({ entityId: entityIdField, userId: z.uuid('must be a UUID') }),
      response: z.object({ code: z.string(), expiresAt: z.string(), hostedUrl: z.string(), email: z.string(), role: z.string() }),
      status: 201,
      errors: { 409: 'Not linked' },
    },
    ({ ctx, entityId, body }) => inviteMemberToHosted(ctx, entityId, body.userId),
  ),
  route(
    { method: 'get', path: '/api/sync/invitations', summary: "The linked entity's invitations and their state (sent, accepted, expired, revoked)", tags, access: manage, query: z.object({ entityId: entityIdField }), response: z.array(invitationSchema), errors: { 409: 'Not linked' } },
    ({ ctx, entityId }) => listHostedInvitations(ctx, entityId),
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/invitations/{invitationId}/resend',
      summary: 'Send an invitation again with a new code (the old one stops working; 7 more days)',
      tags,
      access: manage,
      params: z.object({ invitationId: z.uuid('must be a UUID') }),
      body: z.strictObject({ entityId: entityIdField }),
      response: invitationCreated.extend({ hostedUrl: z.string() }),
      errors: { 404: 'No such invitation', 409: 'Not linked, or accepted already', 410: 'Revoked: invite again' },
    },
    ({ ctx, entityId, params }) => resendHostedInvitation(ctx, entityId, params.invitationId),
  ),
  route(
    { method: 'delete', path: '/api/sync/invitations/{invitationId}', summary: 'Revoke a pending invitation', tags, access: manage, params: z.object({ invitationId: z.uuid('must be a UUID') }), response: invitationSchema, errors: { 404: 'No such invitation', 409: 'Not linked, or accepted already' } },
    ({ ctx, entityId, params }) => revokeHostedInvitation(ctx, entityId, params.invitationId),
  ),
  route(
    {
      method: 'patch',
      path: '/api/sync/devices/{deviceId}',
      summary: 'Rename a device',
      description: "A device is called by its computer's name until renamed; every device of the entity lists the new name.",
      tags,
      access: manage,
      params: z.object({ deviceId: z.uuid('must be a UUID') }),
      body: z.strictObject({ entityId: entityIdField, name: z.string().trim().min(1).max(80) }),
      response: deviceSchema.extend({ current: z.boolean() }),
      errors: { 404: 'No such device', 409: 'Not linked, or the device is revoked' },
    },
    ({ ctx, entityId, params, body }) => renameHostedDevice(ctx, entityId, params.deviceId, body.name),
  ),
  route(
    { method: 'get', path: '/api/sync/devices', summary: 'Devices of the entity on the hosted instance', tags, access: manage, query: z.object({ entityId: entityIdField }), response: z.array(deviceSchema.extend({ current: z.boolean() })) },
    ({ ctx, entityId }) => listHostedDevices(ctx, entityId),
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/devices/rotate',
      summary: "Replace this device's token",
      description:
        "Asks the hosted instance for a new device token and keeps it (sealed) in place of the old one, which stops working as soon as the new one is used (at once: a sync cycle follows). For a token that may have leaked, e.g. from a backup of this device. 502 when the hosted instance cannot be reached; the old token then keeps working.",
      tags,
      access: manage,
      body: z.strictObject({ entityId: entityIdField }),
      response: statusSchema,
      errors: { 409: 'Not linked', 502: 'Hosted instance unreachable or failing' },
    },
    async ({ ctx, entityId }) => {
      await rotateDeviceToken(ctx, entityId);
      return syncStatus(ctx, entityId);
    },
  ),
  route(
    { method: 'delete', path: '/api/sync/devices/{deviceId}', summary: 'Revoke a device', tags, access: manage, params: z.object({ deviceId: z.uuid('must be a UUID') }) },
    ({ ctx, entityId, params }) => revokeHostedDevice(ctx, entityId, params.deviceId),
  ),
  route(
    {
      method: 'post',
      path: '/api/sync/join',
      summary: 'Join an entity from the hosted instance on this install (add-device code) and sign in',
      description:
        'The code is an add-device code (`POST /api/sync/devices/code`) or a member invitation (`POST /api/sync/invitations`, for its e-mail; the hosted account is created on first use, once its address is confirmed). Works on a fresh install with no user yet: creates the local user (with the hosted account id) when none has this e-mail, the entity with its role, pulls all its data, and starts a session. 400 for a wrong, expired or used code or wrong credentials, 403 when the account is not a member, 409 when the entity is already here, 502 when the hosted instance cannot be reached.' +
        confirmationNote,
      tags,
      access: 'public',
      body: z.strictObject({ hostedUrl, code: z.string().trim().min(6).max(64), email: emailSchema, password: passwordSchema, name: z.string().trim().min(1).max(120).optional(), confirmationCode }),
      response: z.union([z.object({ user: userSchema, entity: z.object({ id: z.uuid(), name: z.string() }) }), confirmationAnswer]),
      status: 201,
      alsoAnswers: { 202: { description: 'The hosted instance asks to confirm the address first: repeat the request with `confirmationCode`', schema: confirmationAnswer } },
      errors: { 429: 'Too many failed sign-ins on the hosted instance' },
    },
    async ({ ctx, res, body, userAgent, setStatus }) => {
      const joined = await joinFromHosted(ctx, body);
      if ('confirmation' in joined) {
        setStatus(202);
        return joined;
      }
      startSession(ctx, res, joined.userId, userAgent);
      const user = ctx.db.select().from(users).where(eq(users.id, joined.userId)).get()!;
      return { user: publicUser(user), entity: joined.entity };
    },
  ),
];
