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
    ip: req.ip ?? req.socket.remoteAddress ?? '',
    userAgent: req.get('user-agent') ?? null,
  });
  if (res.headersSent || res.writableEnded) return;
  if (result === undefined) {
    res.status(spec.status ?? 204).end();
    return;
  }
  res.status(spec.status ?? 200).json(result);
}

/** `/a/{id}` → `/a/:id` for Express. */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
