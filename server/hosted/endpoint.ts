// One hosted endpoint: its documentation (the same RouteDoc fields as the desktop's route(), so
// one generator writes both OpenAPI documents), who may call it, its rate limit, its input
// schemas, its use case. Errors go to the app's error handler as `{error}`.
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z, ZodType } from 'zod';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { expressPath } from '../http/route.js';
import { execute, type AppSpec } from '../http/execute.js';
import type { HostedRole } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { authenticateDevice, type DeviceAuth } from './devices.js';

export interface Call<B, Q, P> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  device: DeviceAuth;
  /** The bearer token the device called with (device endpoints). */
  token: string;
}

type Handler<B, Q, P> = (c: Call<B, Q, P>) => Promise<unknown> | unknown;

/** `public`: anyone (the limit counts per client IP); `device`: a device token `dt_…` of a member. */
export type HostedAccess = 'public' | 'device';

/** The hosted instance's endpoint: the shared spec (http/execute.ts) with the hosted access and its limits. */
export interface EndpointSpec<B extends ZodType = ZodType, Q extends ZodType = ZodType, P extends ZodType = ZodType, R extends ZodType = ZodType> extends AppSpec<HostedAccess, P, Q, B, R> {
  /** Device endpoints only some members' devices may call (checked before the input is read). */
  roles?: { only: readonly HostedRole[]; refusal: string };
  /** Counted per device for device endpoints, per client IP for public ones. */
  limit?: RateLimiter;
  /** Counts requests with an invalid or revoked device token per client IP. */
  badTokens?: RateLimiter;
  /** Express middleware that runs first: the body parser (and its size limit), gates. */
  before?: RequestHandler[];
  /** The body parser's limit in bytes, for the document (413 above it). */
  maxBodyBytes?: number;
}

/** An endpoint ready to mount, with the spec it was built from (for the OpenAPI document). */
export interface HostedEndpoint {
  spec: EndpointSpec;
  handler: (req: Request, res: Response) => Promise<void>;
}

export function endpoint<B extends ZodType, Q extends ZodType, P extends ZodType, R extends ZodType>(
  h: HostedContext,
  spec: EndpointSpec<B, Q, P, R>,
  handle: Handler<z.output<B>, z.output<Q>, z.output<P>>,
): HostedEndpoint {
  const handler = async (req: Request, res: Response) => {
    const answer = await execute(spec, { params: req.params, query: req.query, body: req.body }, {
      authorize: () => authorizeHosted(h, spec, req),
      run: (grant, input) => handle({ req, res, ...input, ...grant } as Call<z.output<B>, z.output<Q>, z.output<P>>),
      answered: () => res.headersSent,
      status: () => spec.status ?? 200,
    });
    if (!answer) return;
    if (answer.result === undefined) res.status(answer.status).end();
    else res.status(answer.status).json(answer.result);
  };
  return { spec: spec as unknown as EndpointSpec, handler };
}

type Grant = { device: DeviceAuth; token: string };

/** The hosted instance's access: a member's device token (and role) or nobody, each within its rate limit. */
function authorizeHosted(h: HostedContext, spec: EndpointSpec, req: Request): Grant | Promise<Grant> {
  const ip = req.ip ?? '';
  if (spec.access !== 'device') {
    spec.limit?.hit(ip);
    return { device: undefined as unknown as DeviceAuth, token: '' };
  }
  spec.badTokens?.check(ip);
  const m = /^Bearer\s+(dt_[A-Za-z0-9_-]{10,100})$/.exec(req.get('authorization') ?? '');
  if (!m) throw new UnauthorizedError('A device token (Authorization: Bearer dt_…) is required');
  const token = m[1];
  return authenticateDevice(h, token).then(
    (device) => {
      spec.limit?.hit(device.deviceId);
      if (spec.roles && !spec.roles.only.includes(device.role)) throw new ForbiddenError(spec.roles.refusal);
      return { device, token };
    },
    (err: unknown) => {
      if (err instanceof UnauthorizedError) spec.badTokens?.count(ip);
      throw err;
    },
  );
}

/** Mounts endpoints on a router at their documented method and path, after their own middleware. */
export function mountEndpoints(router: Router, endpoints: HostedEndpoint[]): void {
  for (const { spec, handler } of endpoints) router[spec.method](expressPath(spec.path), ...(spec.before ?? []), handler);
}
