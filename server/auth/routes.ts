import { z } from 'zod';
import { route, type RouteDef } from '../http/route.js';
import * as s from './schemas.js';
import { acceptInvite, endSession, isSetupNeeded, logIn, publicUser, signUp, startSession } from './accounts.js';
import { createEntity, getEntity, listEntitiesOfUser } from './entities.js';
import { addMember, changeMemberRole, getMember, listMembers, removeMember } from './members.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import { users } from './tables.js';
import { eq } from 'drizzle-orm';
import { UnauthorizedError } from '../http/errors.js';
import { ROLE_PERMISSIONS } from '../kernel/permissions.js';
import { entityLinks } from '../kernel/entity-links.js';
import { hostedPeople } from './hosted-people.js';
import type { Auth } from '../kernel/access.js';

const tags = ['Auth'];
const sessionUser = (auth: Auth | null) => {
  if (auth?.kind !== 'session') throw new UnauthorizedError('A signed-in session is required');
  return auth;
};

export const authRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/auth/setup',
      summary: 'Whether this install still needs setting up (no account exists yet)',
      description: 'Unauthenticated, so the app can open on set-up instead of sign-in on first run. Reveals only this boolean.',
      tags,
      access: 'public',
      response: s.setupStatusSchema,
    },
    ({ ctx }) => ({ setupNeeded: isSetupNeeded(ctx) }),
  ),
  route(
    { method: 'post', path: '/api/auth/signup', summary: 'Create an account and its first entity', tags, access: 'public', body: s.signupBody, response: s.signupResponse, status: 201, errors: { 409: 'E-mail already registered' } },
    async ({ ctx, res, body, userAgent }) => {
      const result = await signUp(ctx, body);
      startSession(ctx, res, result.user.id, userAgent);
      return result;
    },
  ),
  route(
    { method: 'post', path: '/api/auth/login', summary: 'Sign in; sets the session cookie', tags, access: 'public', body: s.loginBody, response: z.object({ user: s.userSchema }), errors: { 401: 'Wrong e-mail or password', 429: 'Too many failed attempts' } },
    async ({ ctx, res, body, ip, userAgent }) => {
      const user = await logIn(ctx, { ...body, ip }, (userId, password) => hostedPeople().passwordChangedElsewhere(ctx, userId, password));
      startSession(ctx, res, user.id, userAgent);
      return { user: publicUser(user) };
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/auth/password',
      summary: 'Change your password (on all your devices)',
      description:
        "Checked against this device's password. When you have a hosted account (a linked entity), it changes there first, so your other devices accept the new one at their next sign-in (each keeps its own hash; no hash ever travels); if the hosted instance refuses or cannot be reached, nothing changes. Session only.",
      tags,
      access: 'session',
      body: s.changePasswordBody,
      status: 204,
      errors: { 400: 'The current password is wrong', 401: 'Not signed in', 502: 'The hosted instance cannot be reached: nothing changed' },
    },
    async ({ ctx, auth, body }) => {
      await hostedPeople().changePassword(ctx, sessionUser(auth).userId, body);
    },
  ),
  route(
    { method: 'post', path: '/api/auth/accept-invite', summary: 'Set a password for an invited account and sign in', tags, access: 'public', body: s.acceptInviteBody, response: z.object({ user: s.userSchema }) },
    async ({ ctx, res, body, userAgent }) => {
      const user = await acceptInvite(ctx, body);
      startSession(ctx, res, user.id, userAgent);
      return { user: publicUser(user) };
    },
  ),
  route(
    { method: 'post', path: '/api/auth/logout', summary: 'End the session', tags, access: 'public', response: z.object({ ok: z.literal(true) }) },
    ({ ctx, res, auth }) => {
      endSession(ctx, res, auth?.kind === 'session' ? auth.sessionId : null);
      return { ok: true as const };
    },
  ),
  route(
    { method: 'get', path: '/api/auth/me', summary: 'Who am I: the session user with entities, or the API key with its entity', tags, access: 'user', response: s.meResponse },
    ({ ctx, auth }) => {
      if (auth!.kind === 'apiKey') {
        const a = auth!;
        return { apiKey: { id: a.keyId, name: a.name, prefix: a.prefix, scopes: a.scopes }, entity: getEntity(ctx, a.entityId) };
      }
      const user = ctx.db.select().from(users).where(eq(users.id, auth!.userId)).get()!;
      return { user: publicUser(user), entities: listEntitiesOfUser(ctx, user.id) };
    },
  ),

  route(
    { method: 'get', path: '/api/entities', summary: "List the entities you can act on, with your role", tags: ['Entities'], access: 'user', response: z.array(s.entityWithRoleSchema) },
    ({ ctx, auth }) => {
      if (auth!.kind === 'apiKey') return [{ ...getEntity(ctx, auth!.entityId), role: 'member' as const, permissions: [] }];
      return listEntitiesOfUser(ctx, auth!.userId);
    },
  ),
  route(
    { method: 'post', path: '/api/entities', summary: 'Create an entity; you become its owner', tags: ['Entities'], access: 'session', body: s.createEntityBody, response: s.entityWithRoleSchema, status: 201 },
    ({ ctx, auth, body }) => createEntity(ctx, sessionUser(auth).userId, body.name),
  ),

  route(
    { method: 'get', path: '/api/entities/{entityId}/members', summary: 'List members and their roles', tags: ['Entities'], access: { entity: 'QBH', permission: 'MEMBERS.VIEW' }, params: s.entityIdParams, response: z.array(s.memberSchema) },
    ({ ctx, entityId }) => listMembers(ctx, entityId, { withRemoved: true }),
  ),
  route(
    {
      method: 'post',
      path: '/api/entities/{entityId}/members',
      summary: 'Add a member by e-mail (an existing user, or a new person who gets an invitation token)',
      tags: ['Entities'],
      access: { entity: 'QBH', permission: 'MEMBERS.MANAGE' },
      params: s.entityIdParams,
      body: s.addMemberBody,
      response: s.addMemberResponse,
      status: 201,
      errors: { 409: 'Already a member' },
    },
    async ({ ctx, auth, entityId, body }) => {
      if (!entityLinks().linkOf(ctx.db, entityId)) return addMember(ctx, entityId, sessionUser(auth).userId, body);
      // Linked: the hosted instance invites her (mail, join page); her row comes back as on every device.
      const invitation = await hostedPeople().invite(ctx, entityId, body);
      const member = listMembers(ctx, entityId).find((m) => m.userId === invitation.accountId) ?? {
        userId: invitation.accountId!,
        email: invitation.email,
        name: invitation.name ?? invitation.email,
        role: invitation.role,
        joinedAt: invitation.createdAt ?? invitation.expiresAt,
        state: 'invited' as const,
        pending: true,
      };
      return { member, invitation };
    },
  ),
  route(
    { method: 'get', path: '/api/entities/{entityId}/members/{userId}', summary: 'Get one member', tags: ['Entities'], access: { entity: 'QBH', permission: 'MEMBERS.VIEW' }, params: s.memberParams, response: s.memberSchema },
    ({ ctx, entityId, params }) => getMember(ctx, entityId, params.userId),
  ),
  route(
    { method: 'patch', path: '/api/entities/{entityId}/members/{userId}', summary: "Change a member's role", tags: ['Entities'], access: { entity: 'QBH', permission: 'MEMBERS.MANAGE' }, params: s.memberParams, body: s.updateMemberBody, response: s.memberSchema, errors: { 409: 'Would leave the entity without an owner' } },
    async ({ ctx, auth, entityId, params, body }) => {
      if (!entityLinks().linkOf(ctx.db, entityId)) return changeMemberRole(ctx, entityId, sessionUser(auth).userId, params.userId, body.role);
      // Linked: the hosted instance decides (owner rules, last owner) and every device follows.
      await hostedPeople().changeRole(ctx, entityId, params.userId, body.role);
      return getMember(ctx, entityId, params.userId);
    },
  ),
  route(
    { method: 'delete', path: '/api/entities/{entityId}/members/{userId}', summary: 'Remove a member', tags: ['Entities'], access: { entity: 'QBH', permission: 'MEMBERS.MANAGE' }, params: s.memberParams, response: z.object({ removed: z.boolean() }), errors: { 409: 'Would leave the entity without an owner' } },
    async ({ ctx, auth, entityId, params }) => {
      if (!entityLinks().linkOf(ctx.db, entityId)) return removeMember(ctx, entityId, sessionUser(auth).userId, params.userId);
      await hostedPeople().remove(ctx, entityId, params.userId);
      return { removed: true };
    },
  ),

  route(
    { method: 'get', path: '/api/settings/api-keys', summary: "List the entity's API keys (never the key itself)", tags: ['API keys'], access: { entity: 'QBH', permission: 'SETTINGS.MANAGE' }, response: z.array(s.apiKeySchema) },
    ({ ctx, entityId }) => listApiKeys(ctx, entityId),
  ),
  route(
    { method: 'post', path: '/api/settings/api-keys', summary: 'Create an API key; the plaintext key is returned once', tags: ['API keys'], access: { entity: 'QBH', permission: 'SETTINGS.MANAGE' }, body: s.createApiKeyBody, response: s.createdApiKeySchema, status: 201 },
    ({ ctx, auth, entityId, body }) => createApiKey(ctx, entityId, sessionUser(auth).userId, body),
  ),
  route(
    { method: 'delete', path: '/api/settings/api-keys/{keyId}', summary: 'Revoke an API key at once', tags: ['API keys'], access: { entity: 'QBH', permission: 'SETTINGS.MANAGE' }, params: s.apiKeyParams, response: s.apiKeySchema },
    ({ ctx, entityId, params }) => revokeApiKey(ctx, entityId, params.keyId),
  ),
  route(
    { method: 'get', path: '/api/auth/roles', summary: 'The role → permission table', tags, access: 'public', response: z.object(Object.fromEntries(s.roleSchema.options.map((role) => [role, z.array(s.permissionSchema)]))) },
    () => ROLE_PERMISSIONS as Record<string, never>,
  ),
];

