import { and, desc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { apiKeys } from './tables.js';
import { randomToken, sha256Hex } from './passwords.js';
import type { Scope } from '../kernel/permissions.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function publicApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes as Scope[],
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
  };
}

/** Creates a key and returns its plaintext once; only its SHA-256 is stored. */
export function createApiKey(ctx: Context, entityId: string, userId: string, input: { name: string; scopes: Scope[]; expiresAt?: string | null }) {
  const now = nowIso(ctx);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  if (expiresAt && expiresAt <= now) throw new BadRequestError('expiresAt must be in the future');
  const key = `ak_${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: ctx.ids.next(),
    entityId,
    name: input.name,
    prefix: key.slice(0, 11),
    keyHash: sha256Hex(key),
    scopes: input.scopes,
    createdBy: userId,
    createdAt: now,
    lastUsedAt: null,
    expiresAt,
    revokedAt: null,
  };
  ctx.db.insert(apiKeys).values(row).run();
  return { ...publicApiKey(row), key };
}

export function listApiKeys(ctx: Context, entityId: string) {
  return ctx.db.select().from(apiKeys).where(eq(apiKeys.entityId, entityId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).all().map(publicApiKey);
}

export function revokeApiKey(ctx: Context, entityId: string, keyId: string) {
  const row = ctx.db.select().from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.entityId, entityId))).get();
  if (!row) throw new NotFoundError('API key not found');
  if (!row.revokedAt) ctx.db.update(apiKeys).set({ revokedAt: nowIso(ctx) }).where(eq(apiKeys.id, keyId)).run();
  return publicApiKey(ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get()!);
}
