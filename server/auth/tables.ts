import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(), // stored lower-cased
  name: text('name').notNull(),
  passwordHash: text('password_hash'), // null until an invited user sets one
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

export const entities = sqliteTable('entities', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

export const memberships = sqliteTable(
  'memberships',
  {
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_idx').on(t.tokenHash)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes', { mode: 'json' }).notNull().$type<string[]>(),
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_entity_idx').on(t.entityId)],
);

/** Invitations for people who have no password yet; the token is stored hashed. */
export const invitations = sqliteTable('invitations', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
  createdAt: text('created_at').notNull(),
  expiresAt: text('expires_at').notNull(),
  acceptedAt: text('accepted_at'),
});

/** Failed logins, for throttling password guessing per e-mail and per client address. */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: text('at').notNull(),
  },
  (t) => [index('login_failures_email_idx').on(t.email, t.at), index('login_failures_ip_idx').on(t.ip, t.at)],
);

/**
 * The people of a linked entity as the hosted instance knows them (it alone writes these rows:
 * a device's own pushes to this table are refused). Applying them keeps `users` and `memberships`
 * in step (people.ts), so names, assignees and permissions resolve on every device.
 */
export const entityPeople = sqliteTable(
  'entity_people',
  {
    entityId: text('entity_id').notNull().references(() => entities.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'member', 'viewer'] }).notNull(),
    state: text('state', { enum: ['invited', 'active', 'removed'] }).notNull(),
    invitedAt: text('invited_at'),
    joinedAt: text('joined_at'),
    removedAt: text('removed_at'),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.userId] })],
);
