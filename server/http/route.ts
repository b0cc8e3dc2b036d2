import type { Request, Response } from 'express';
import { z, type ZodType } from 'zod';
import type { Context } from '../context.js';
import type { Permission, Scope } from '../kernel/permissions.js';
import type { Auth } from '../kernel/access.js';
import { resolveEntityAccess, type EntitySource } from './entity-scope.js';
import { UnauthorizedError } from './errors.js';
import { writeJson, type EtagFn, type JsonText } from './write-json.js';
import { execute, type Answer, type AppSpec } from './execute.js';

export type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

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

/**
 * What documents one endpoint (its OpenAPI operation), whichever server declares it: the desktop's
 * `route()` and the hosted instance's `endpoint()` both extend it, and server/http/openapi.ts
 * turns it into the document.
 */
export interface RouteDoc<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType, R extends ZodType = ZodType> {
  method: Method;
  /** OpenAPI-style path, e.g. `/api/helpdesk/tickets/{ticketId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Response schema for the success status; omit for non-JSON responses (files, streams). */
  response?: R;
  /** Success status (default 200). */
  status?: number;
  /** Content type of a non-JSON success response, for the OpenAPI document. */
  produces?: string;
  /** Content type of a non-JSON request body (a file upload), for the OpenAPI document. */
  consumes?: string;
  /** Error statuses this route can return besides the common ones, with what they mean. */
  errors?: Record<number, string>;
  /** Other success answers than `status` (e.g. 202 "confirm your address first"), each with its schema. */
  alsoAnswers?: Record<number, { description: string; schema: ZodType }>;
}

/** The desktop's endpoint: the shared spec (execute.ts) with the desktop's access. */
export interface RouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType, R extends ZodType> extends AppSpec<RouteAccess, P, Q, B, R> {
  /**
   * Answered by the direct dispatcher (server/http/direct.ts) without Express: for the hottest
   * routes only. Their handler uses the RouteContext fields, `setStatus` and `res.setHeader`
   * (`req`/`res` are then Node's own objects, not Express's).
   */
  direct?: true;
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
  /** Answers with this status instead of the spec's success status (e.g. 200 for a replay). */
  setStatus(status: number): void;
}

export interface RouteDef {
  spec: RouteSpec<ZodType, ZodType, ZodType, ZodType>;
  handle(c: RouteContext<unknown, unknown, unknown>): unknown;
}

type Out<T> = T extends ZodType ? z.output<T> : undefined;

/** What a handler answers: the response, or the response already serialised (a long list's, built in slices). */
type HandlerAnswer<T> = T | JsonText<T>;

/** Declares one endpoint: its schemas (validated and documented) and its handler. */
export function route<
  P extends ZodType = ZodType<undefined>,
  Q extends ZodType = ZodType<undefined>,
  B extends ZodType = ZodType<undefined>,
  R extends ZodType = ZodType<unknown>,
>(spec: RouteSpec<P, Q, B, R>, handle: (c: RouteContext<Out<P>, Out<Q>, Out<B>>) => HandlerAnswer<z.input<R>> | Promise<HandlerAnswer<z.input<R>>> | void | Promise<void>): RouteDef {
  return { spec, handle } as unknown as RouteDef;
}

/** What runRoute needs of a request, from Express or from the direct dispatcher. */
export interface RouteRequest {
  req: Request;
  res: Response;
  auth: Auth | null;
  params: Record<string, unknown>;
  query: unknown;
  body: unknown;
  header(name: string): string | undefined;
  ip(): string;
}

/** A route's success status and result (undefined: no body), or null when the handler answered itself. */
export type RouteAnswer = Answer;

/**
 * Runs a route through the shared executor (execute.ts) with the desktop's access: authorizes,
 * validates input and calls the handler. Throws what any of them throws. A synchronous handler's
 * answer comes back synchronously (the direct dispatcher then answers in the same turn), an async
 * one's as a promise.
 */
export function executeRoute(def: RouteDef, ctx: Context, r: RouteRequest): RouteAnswer | Promise<RouteAnswer> {
  const { spec } = def;
  let call: RouteCall;
  return execute(spec, r, {
    authorize: () => authorizeRoute(ctx, r, spec.access),
    run: (entityId, input) => def.handle((call = new RouteCall(ctx, r, input.params, input.query, input.body, r.auth, entityId, spec.status ?? 200))),
    answered: () => r.res.headersSent || r.res.writableEnded,
    status: () => call.status,
  });
}

/** The desktop's access: a session or API key as the route asks; for entity routes, the entity it may act on ('' otherwise). */
function authorizeRoute(ctx: Context, r: RouteRequest, access: RouteAccess): string {
  const { auth } = r;
  if (access === 'user') {
    if (!auth) throw new UnauthorizedError();
  } else if (access === 'session') {
    if (!auth || auth.kind !== 'session') throw new UnauthorizedError('A signed-in session is required');
  } else if (access !== 'public') {
    return resolveEntityAccess(ctx, r, auth, access);
  }
  return '';
}

/**
 * A route's RouteContext. A class, not an object literal with getters: V8 builds a literal's
 * accessors anew for every request, which measured at a third of answering /api/health.
 */
class RouteCall implements RouteContext<unknown, unknown, unknown> {
  readonly req: Request;
  readonly res: Response;
  constructor(
    readonly ctx: Context,
    private readonly r: RouteRequest,
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly auth: Auth | null,
    readonly entityId: string,
    public status: number,
  ) {
    this.req = r.req;
    this.res = r.res;
  }

  // Read on use: resolving the client address (trust proxy) is work most handlers never need.
  get ip(): string {
    return this.r.ip();
  }

  get userAgent(): string | null {
    return this.r.header('user-agent') ?? null;
  }

  /** An arrow, so that handlers may destructure it. */
  readonly setStatus = (status: number): void => {
    this.status = status;
  };
}

/** Runs a route for Express: the request as Express parsed it, the answer as JSON. */
export async function runRoute(def: RouteDef, ctx: Context, req: Request, res: Response): Promise<void> {
  // Express 5 parses the query string again on every read of req.query: parse it once here.
  Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
  const answer = await executeRoute(def, ctx, {
    req,
    res,
    auth: (req as Request & { auth?: Auth | null }).auth ?? null,
    params: req.params,
    query: req.query,
    body: req.body,
    header: (name) => req.get(name),
    ip: () => req.ip ?? req.socket.remoteAddress ?? '',
  });
  if (!answer) return;
  if (answer.result === undefined) {
    res.status(answer.status).end();
    return;
  }
  sendJson(req, res, answer.status, answer.result);
}

/** Express answers what `writeJson` does not: a handler's own Content-Type or Transfer-Encoding, 204/205. */
function sendJson(req: Request, res: Response, status: number, result: unknown): void {
  if (status === 204 || status === 205 || res.getHeader('content-type') !== undefined || res.getHeader('transfer-encoding') !== undefined) {
    res.status(status).json(result);
    return;
  }
  writeJson(req, res, status, result, req.app.get('etag fn') as EtagFn | undefined);
}

/** `/a/{id}` → `/a/:id` for Express. */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
