import type { RequestHandler } from 'express';
import { and, eq, gt } from 'drizzle-orm';
import type { Context } from '../context.js';
import { apiKeys, sessions, users } from './tables.js';
import { sha256Hex } from './passwords.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';

export const SESSION_COOKIE = 'bureau_session';

export type Auth =
  | { kind: 'session'; userId: string; sessionId: string; email: string; name: string }
  | { kind: 'apiKey'; keyId: string; entityId: string; scopes: string[]; name: string; prefix: string };

/** Who did it, for audit records written by any module. */
export function actorOf(auth: Auth | null): { type: 'user' | 'api_key' | 'anonymous'; id: string | null; name: string } {
  if (!auth) return { type: 'anonymous', id: null, name: 'anonymous' };
  if (auth.kind === 'session') return { type: 'user', id: auth.userId, name: auth.name };
  return { type: 'api_key', id: auth.keyId, name: `API key ${auth.name}` };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads credentials (API key bearer or session cookie) and sets `req.auth`.
 * A bad API key fails at once (401); a stale cookie is simply ignored.
 */
export function authenticate(ctx: Context): RequestHandler {
  return (req, res, next) => {
    const r = req as typeof req & { auth: Auth | null };
    r.auth = null;
    const header = req.get('authorization');
    if (header) {
      const m = /^Bearer\s+(\S+)$/i.exec(header);
      if (!m || !m[1].startsWith('ak_')) return next(new UnauthorizedError('Invalid authorization header'));
      r.auth = authenticateApiKey(ctx, m[1]);
      return next();
    }
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (token) {
      const session = findSession(ctx, token);
      if (session) {
        // Cookie-authenticated writes must come from our own pages (CSRF).
        if (!SAFE_METHODS.has(req.method) && !req.get('origin')) return next(new ForbiddenError('Origin header required'));
        r.auth = session;
      }
    }
    next();
  };
}

function authenticateApiKey(ctx: Context, key: string): Auth {
  const now = ctx.clock.now().toISOString();
  const row = ctx.db.select().from(apiKeys).where(eq(apiKeys.keyHash, sha256Hex(key))).get();
  if (!row) throw new UnauthorizedError('Invalid API key');
  if (row.revokedAt) throw new UnauthorizedError('API key has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw new UnauthorizedError('API key has expired');
  // lastUsedAt at minute resolution: avoids a write on every request of a busy integration.
  if (!row.lastUsedAt || row.lastUsedAt.slice(0, 16) !== now.slice(0, 16)) {
    ctx.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id)).run();
  }
  return { kind: 'apiKey', keyId: row.id, entityId: row.entityId, scopes: row.scopes, name: row.name, prefix: row.prefix };
}

function findSession(ctx: Context, token: string): Auth | null {
  const now = ctx.clock.now().toISOString();
  const row = ctx.db
    .select({ id: sessions.id, userId: sessions.userId, email: users.email, name: users.name })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, now)))
    .get();
  return row ? { kind: 'session', userId: row.userId, sessionId: row.id, email: row.email, name: row.name } : null;
}

/** The named cookie's value; a value that is not valid percent-encoding is skipped (never throws). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        continue; // another cookie of the same name (another path or port) may still be ours
      }
    }
  }
  return undefined;
}
