import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { Statement } from 'better-sqlite3';
import type { Context } from '../context.js';
import type { Auth } from '../kernel/access.js';
import { sha256Hex } from './passwords.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';

export const SESSION_COOKIE = 'bureau_session';


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
  return (req, _res, next) => {
    (req as typeof req & { auth: Auth | null }).auth = credentialsOf(ctx, req.method, req.headers);
    next();
  };
}

/** The request's credentials, or null for none; throws the 401/403 a bad credential gets. */
export function credentialsOf(ctx: Context, method: string, headers: IncomingHttpHeaders): Auth | null {
  const header = headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m || !m[1].startsWith('ak_')) throw new UnauthorizedError('Invalid authorization header');
    return authenticateApiKey(ctx, m[1]);
  }
  const token = readCookie(headers.cookie, SESSION_COOKIE);
  const session = token ? findSession(ctx, token) : null;
  // Cookie-authenticated writes must come from our own pages (CSRF).
  if (session && !SAFE_METHODS.has(method) && !headers.origin) throw new ForbiddenError('Origin header required');
  return session;
}

type ApiKeyRow = { id: string; entityId: string; name: string; prefix: string; scopes: string; lastUsedAt: string | null; expiresAt: string | null; revokedAt: string | null };
type SessionRow = { id: string; userId: string; email: string; name: string };
interface AuthStatements {
  keyByHash: Statement<[string], ApiKeyRow>;
  touchKey: Statement<[string, string]>;
  session: Statement<[string, string], SessionRow>;
}
const prepared = new WeakMap<Context['sqlite'], AuthStatements>();

/** The credential checks run on every request, as statements prepared once per database. */
function statementsOf(ctx: Context): AuthStatements {
  let st = prepared.get(ctx.sqlite);
  if (!st) {
    const db = ctx.sqlite;
    st = {
      keyByHash: db.prepare<[string], ApiKeyRow>(
        'select id, entity_id as entityId, name, prefix, scopes, last_used_at as lastUsedAt, expires_at as expiresAt, revoked_at as revokedAt from api_keys where key_hash = ?',
      ),
      touchKey: db.prepare<[string, string]>('update api_keys set last_used_at = ? where id = ?'),
      session: db.prepare<[string, string], SessionRow>(
        'select s.id as id, s.user_id as userId, u.email as email, u.name as name from sessions s join users u on u.id = s.user_id where s.token_hash = ? and s.expires_at > ?',
      ),
    };
    prepared.set(ctx.sqlite, st);
  }
  return st;
}

/**
 * Looks the key up by its hash on every request (no cache: a revoked, expired or deleted key
 * fails on the very next request, whichever connection or process changed it).
 */
function authenticateApiKey(ctx: Context, key: string): Auth {
  const now = ctx.clock.now().toISOString();
  const st = statementsOf(ctx);
  const row = st.keyByHash.get(sha256Hex(key));
  if (!row) throw new UnauthorizedError('Invalid API key');
  if (row.revokedAt) throw new UnauthorizedError('API key has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw new UnauthorizedError('API key has expired');
  // lastUsedAt at minute resolution: avoids a write on every request of a busy integration.
  if (!row.lastUsedAt || row.lastUsedAt.slice(0, 16) !== now.slice(0, 16)) st.touchKey.run(now, row.id);
  return { kind: 'apiKey', keyId: row.id, entityId: row.entityId, scopes: JSON.parse(row.scopes) as string[], name: row.name, prefix: row.prefix };
}

function findSession(ctx: Context, token: string): Auth | null {
  const row = statementsOf(ctx).session.get(sha256Hex(token), ctx.clock.now().toISOString());
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
