// One hosted endpoint: who may call it, its rate limit, its input schemas, its use case. Errors
// go to the app's error handler as `{error}`.
import type { Request, Response } from 'express';
import type { z, ZodType } from 'zod';
import { UnauthorizedError } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
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

export interface EndpointSpec<B, Q, P> {
  access: 'public' | 'device';
  /** Counted per device for device endpoints, per client IP for public ones. */
  limit?: RateLimiter;
  /** Counts requests with an invalid or revoked device token per client IP. */
  badTokens?: RateLimiter;
  body?: B;
  query?: Q;
  params?: P;
  status?: number;
}

export function endpoint<B extends ZodType, Q extends ZodType, P extends ZodType>(h: HostedContext, spec: EndpointSpec<B, Q, P>, handle: Handler<z.output<B>, z.output<Q>, z.output<P>>) {
  return async (req: Request, res: Response) => {
    let device = undefined as unknown as DeviceAuth;
    let token = '';
    const ip = req.ip ?? '';
    if (spec.access === 'device') {
      spec.badTokens?.check(ip);
      const m = /^Bearer\s+(dt_[A-Za-z0-9_-]{10,100})$/.exec(req.get('authorization') ?? '');
      if (!m) throw new UnauthorizedError('A device token (Authorization: Bearer dt_…) is required');
      token = m[1];
      try {
        device = await authenticateDevice(h, token);
      } catch (err) {
        if (err instanceof UnauthorizedError) spec.badTokens?.count(ip);
        throw err;
      }
      spec.limit?.hit(device.deviceId);
    } else spec.limit?.hit(ip);
    const body = spec.body ? spec.body.parse(req.body ?? {}) : undefined;
    const query = spec.query ? spec.query.parse(req.query) : undefined;
    const params = spec.params ? spec.params.parse(req.params) : undefined;
    const result = await handle({ req, res, body, query, params, device, token } as Call<z.output<B>, z.output<Q>, z.output<P>>);
    if (res.headersSent) return;
    if (result === undefined) res.status(spec.status ?? 204).end();
    else res.status(spec.status ?? 200).json(result);
  };
}
