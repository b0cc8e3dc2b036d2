import type { Request, Response } from 'express';
import { z, type ZodType } from 'zod';
import type { Context } from '../context.js';
import type { Permission, Scope } from '../auth/permissions.js';
import type { Auth } from '../auth/authenticate.js';
import { resolveEntityAccess, type EntitySource } from './entity-scope.js';
import { UnauthorizedError } from './errors.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Entity-scoped access: a session member needs `permission`; an API key needs `scope`. */
export interface EntityAccess {
  entity: EntitySource;
  permission: Permission;
  /** Absent: API keys are refused (session-only route, e.g. proving on the device). */
  scope?: Scope;
}

/**
 * `public`: no credentials; `user`: any signed-in session or API key (no entity scope);
 * `session`: a signed-in session only; otherwise entity-scoped access.
 */
export type RouteAccess = 'public' | 'user' | 'session' | EntityAccess;

export interface RouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType, R extends ZodType> {
  method: Method;
  /** OpenAPI-style path, e.g. `/api/helpdesk/tickets/{ticketId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: RouteAccess;
  params?: P;
  query?: Q;
  body?: B;
  /** Response schema for the success status; omit for non-JSON responses (files, streams). */
  response?: R;
  /** Success status (default 200). */
  status?: number;
  /** Content type of a non-JSON success response, for the OpenAPI document. */
  produces?: string;
  /** Error statuses this route can return besides the common ones, with what they mean. */
  errors?: Record<number, string>;
}

export interface RouteContext<P, Q, B> {
  ctx: Context;
  req: Request;
  res: Response;
  params: P;
  query: Q;
  body: B;
  auth: Auth | null;
  /** Set on entity-scoped routes: the entity the request acts on, already authorized. */
  entityId: string;
  ip: string;
  userAgent: string | null;
}

export interface RouteDef {
  spec: RouteSpec<ZodType, ZodType, ZodType, ZodType>;
  handle(c: RouteContext<unknown, unknown, unknown>): unknown;
}

type Out<T> = T extends ZodType ? z.output<T> : undefined;

/** Declares one endpoint: its schemas (validated and documented) and its handler. */
export function route<
  P extends ZodType = ZodType<undefined>,
  Q extends ZodType = ZodType<undefined>,
  B extends ZodType = ZodType<undefined>,
  R extends ZodType = ZodType<unknown>,
>(spec: RouteSpec<P, Q, B, R>, handle: (c: RouteContext<Out<P>, Out<Q>, Out<B>>) => z.input<R> | Promise<z.input<R>> | void | Promise<void>): RouteDef {
  return { spec, handle } as unknown as RouteDef;
}

/** Runs a route: authenticate per access, validate input, call the handler, send JSON. */
export async function runRoute(def: RouteDef, ctx: Context, req: Request, res: Response): Promise<void> {
  const { spec } = def;
  // Express 5 parses the query string again on every read of req.query: parse it once here.
  Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
  const auth = (req as Request & { auth?: Auth | null }).auth ?? null;
  let entityId = '';
  if (spec.access === 'user') {
    if (!auth) throw new UnauthorizedError();
  } else if (spec.access === 'session') {
    if (!auth || auth.kind !== 'session') throw new UnauthorizedError('A signed-in session is required');
  } else if (spec.access !== 'public') {
    entityId = resolveEntityAccess(ctx, req, auth, spec.access);
  }
  const params = spec.params ? spec.params.parse(req.params) : undefined;
  const query = spec.query ? spec.query.parse(req.query) : undefined;
  const body = spec.body ? spec.body.parse(req.body ?? {}) : undefined;
  const result = await def.handle({
    ctx,
    req,
    res,
    params,
    query,
    body,
    auth,
    entityId,
    // Read on use: resolving the client address (trust proxy) is work most handlers never need.
    get ip() {
      return req.ip ?? req.socket.remoteAddress ?? '';
    },
    get userAgent() {
      return req.get('user-agent') ?? null;
    },
  });
  if (res.headersSent || res.writableEnded) return;
  if (result === undefined) {
    res.status(spec.status ?? 204).end();
    return;
  }
  sendJson(req, res, spec.status ?? 200, result);
}

/**
 * `res.status(status).json(result)` as Express answers it (the app sets no JSON replacer, spaces
 * or escaping): `application/json; charset=utf-8`, Content-Length, the app's ETag, 304 when the
 * request is fresh, no body for HEAD; without Express's per-response settings lookups and
 * Content-Type parsing, and the body stays one string (Node sends it with the headers).
 * Anything unusual (a handler's own Content-Type or Transfer-Encoding, 204/205) goes to Express.
 */
function sendJson(req: Request, res: Response, status: number, result: unknown): void {
  if (status === 204 || status === 205 || res.getHeader('content-type') !== undefined || res.getHeader('transfer-encoding') !== undefined) {
    res.status(status).json(result);
    return;
  }
  const json = JSON.stringify(result);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  const etagFn = req.app.get('etag fn') as ((body: string, encoding: BufferEncoding) => string | undefined) | undefined;
  if (typeof etagFn === 'function' && res.getHeader('etag') === undefined) {
    const tag = etagFn(json, 'utf8');
    if (tag) res.setHeader('ETag', tag);
  }
  if (req.fresh) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(json, 'utf8');
}

/** `/a/{id}` → `/a/:id` for Express. */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
