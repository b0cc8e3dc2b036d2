import { z } from 'zod';
import { PERMISSIONS, ROLES, SCOPES } from '../kernel/permissions.js';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ message: 'A valid e-mail address is required' })).meta({ example: 'ada@example.com' });
export const passwordSchema = z.string().min(10, 'Password must be at least 10 characters').max(200);
export const nameSchema = z.string().trim().min(1, 'Name is required').max(120);

export const signupBody = z.object({ email: emailSchema, password: passwordSchema, name: nameSchema, entityName: nameSchema });
export const loginBody = z.object({ email: emailSchema, password: z.string().min(1).max(200) });
export const acceptInviteBody = z.object({ token: z.string().min(10).max(200), password: passwordSchema, name: nameSchema.optional() });

export const userSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string(), createdAt: z.string() }).meta({ id: 'User' });
export const roleSchema = z.enum(ROLES);

/** An invitation as devices see it; `code` and `joinUrl` only in the answer that made (or renewed) it. */
export const invitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  accountId: z.uuid().nullable(),
  state: z.enum(['sent', 'accepted', 'expired', 'revoked']),
  createdAt: z.string().nullable(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  mailedAt: z.string().nullable(),
});
export const invitationCreated = invitationSchema.extend({ code: z.string(), joinUrl: z.string(), mailed: z.boolean() });
export type InvitationCreated = z.infer<typeof invitationCreated>;
export const permissionSchema = z.enum(PERMISSIONS);
export const scopeSchema = z.enum(SCOPES);
export const entitySchema = z.object({ id: z.uuid(), name: z.string(), createdAt: z.string(), updatedAt: z.string() }).meta({ id: 'Entity' });
export const entityWithRoleSchema = entitySchema.extend({ role: roleSchema, permissions: z.array(permissionSchema) }).meta({ id: 'EntityWithRole' });

export const setupStatusSchema = z
  .object({ setupNeeded: z.boolean().meta({ description: '`true` on a fresh install with no account yet: the app opens set-up (sign-up) instead of sign-in.' }) })
  .meta({ id: 'SetupStatus' });

export const signupResponse = z.object({ user: userSchema, entity: entitySchema });
export const meResponse = z
  .union([
    z.object({ user: userSchema, entities: z.array(entityWithRoleSchema) }),
    z.object({ apiKey: z.object({ id: z.uuid(), name: z.string(), prefix: z.string(), scopes: z.array(z.string()) }), entity: entitySchema }),
  ])
  .meta({ id: 'Me', description: 'With a session: the user and their entities. With an API key: the key and its entity.' });

export const createEntityBody = z.object({ name: nameSchema });
export const entityIdParams = z.object({ entityId: z.uuid() });
export const memberParams = z.object({ entityId: z.uuid(), userId: z.uuid() });

export const memberSchema = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    joinedAt: z.string(),
    state: z.enum(['invited', 'active', 'removed']).meta({ description: "In a linked entity the hosted instance's word (every device shows the same); removed people stay listed so their names resolve." }),
    pending: z.boolean().meta({ description: 'Invited and not joined yet (`state` is `invited`).' }),
  })
  .meta({ id: 'Member' });
export const addMemberBody = z.object({ email: emailSchema, role: roleSchema, name: nameSchema.optional() });
export const addMemberResponse = z.object({
  member: memberSchema,
  inviteToken: z.string().optional().meta({ description: 'Unlinked entity: shown once when the person has no account yet; they accept with POST /api/auth/accept-invite — on this machine only.' }),
  invitation: invitationCreated
    .extend({ hostedUrl: z.string() })
    .optional()
    .meta({ description: "Linked entity: the hosted instance's invitation (it mailed her the join link when it has SMTP: `mailed`); `code` and `joinUrl` are shown once." }),
});
export const changePasswordBody = z.strictObject({ currentPassword: z.string().min(1).max(200), newPassword: passwordSchema });
export const updateMemberBody = z.object({ role: roleSchema });

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(scopeSchema),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export const createApiKeyBody = z.object({
  name: nameSchema,
  scopes: z.array(scopeSchema).min(1, 'At least one scope is required').refine((s) => new Set(s).size === s.length, 'Scopes must not repeat'),
  expiresAt: z.iso.datetime({ offset: true }).optional().nullable(),
});
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string().meta({ description: 'The plaintext key, shown only in this response.' }) });
export const apiKeyParams = z.object({ keyId: z.uuid() });
