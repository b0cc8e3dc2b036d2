// The hosted instance's HTTP surface: `/sync/v1` for devices, `/api/health` for operators.
import express, { type Request, type Response, type Router } from 'express';
import { z, type ZodType } from 'zod';
import { createRateLimiter, withLimit } from '../http/rate-limit.js';
import { MAX_BLOB_BYTES, MAX_PUSH_BYTES, invitationBody, joinBody, linkBody, pullQuery, pushBody } from '../sync/protocol.js';
import { VERSION } from '../version.js';
import type { HostedContext } from './context.js';
import { authenticateDevice, canManage, createDeviceCode, createInvitation, joinWithCode, linkEntity, listDevices, revokeDevice, type DeviceAuth } from './devices.js';
import { pushChanges } from './push.js';
import { pullChanges } from './pull.js';
import { getBlob, hasBlob, putBlob } from './blobs.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';

interface Call<B, Q, P> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  device: DeviceAuth;
}

type Handler<B, Q, P> = (c: Call<B, Q, P>) => Promise<unknown> | unknown;

/** One endpoint: who may call it, its input schemas, its use case. Errors go to the app's error handler. */
function endpoint<B extends ZodType, Q extends ZodType, P extends ZodType>(
  h: HostedContext,
  spec: { access: 'public' | 'device'; body?: B; query?: Q; params?: P; status?: number },
  handle: Handler<z.output<B>, z.output<Q>, z.output<P>>,
) {
  return async (req: Request, res: Response) => {
    let device = undefined as unknown as DeviceAuth;
    if (spec.access === 'device') {
      const m = /^Bearer\s+(dt_[A-Za-z0-9_-]{10,100})$/.exec(req.get('authorization') ?? '');
      if (!m) throw new UnauthorizedError('A device token (Authorization: Bearer dt_…) is required');
      device = await authenticateDevice(h, m[1]);
    }
    const body = spec.body ? spec.body.parse(req.body ?? {}) : undefined;
    const query = spec.query ? spec.query.parse(req.query) : undefined;
    const params = spec.params ? spec.params.parse(req.params) : undefined;
    const result = await handle({ req, res, body, query, params, device } as Call<z.output<B>, z.output<Q>, z.output<P>>);
    if (res.headersSent) return;
    if (result === undefined) res.status(spec.status ?? 204).end();
    else res.status(spec.status ?? 200).json(result);
  };
}

const shaParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256') });
const deviceParams = z.object({ deviceId: z.uuid('must be a UUID') });

/** Failed sign-ins (link, join) per client IP: 20 per 15 minutes. */
const SIGN_IN_RATE = { limit: 20, windowMs: 15 * 60_000, message: 'Too many failed sign-in attempts from this address; try again later' };

export function hostedRouter(h: HostedContext): Router {
  const router = express.Router();
  const signIns = createRateLimiter(h.clock, SIGN_IN_RATE);
  /** Runs a sign-in use case, counting it against the IP only when the credentials were wrong. */
  const throttled = <T>(req: Request, use: () => Promise<T>): Promise<T> => withLimit(signIns, req.ip ?? '', (err) => err instanceof UnauthorizedError, use);
  const json = express.json({ limit: MAX_PUSH_BYTES });

  router.get('/api/health', (_req, res) => void res.json({ status: 'ok', version: VERSION, role: 'hosted' }));

  router.post('/sync/v1/link', json, endpoint(h, { access: 'public', body: linkBody, status: 201 }, ({ req, body }) => throttled(req, () => linkEntity(h, body))));
  router.post('/sync/v1/join', json, endpoint(h, { access: 'public', body: joinBody, status: 201 }, ({ req, body }) => throttled(req, () => joinWithCode(h, body))));

  router.post(
    '/sync/v1/devices/codes',
    endpoint(h, { access: 'device', status: 201 }, ({ device }) => {
      if (!canManage(device)) throw new ForbiddenError('Only an owner or admin can add devices');
      return createDeviceCode(h, device);
    }),
  );
  router.post('/sync/v1/invitations', json, endpoint(h, { access: 'device', body: invitationBody, status: 201 }, ({ device, body }) => createInvitation(h, device, body)));
  router.get('/sync/v1/devices', endpoint(h, { access: 'device' }, ({ device }) => listDevices(h, device)));
  router.delete('/sync/v1/devices/:deviceId', endpoint(h, { access: 'device', params: deviceParams }, ({ device, params }) => revokeDevice(h, device, params.deviceId)));

  router.post('/sync/v1/push', json, endpoint(h, { access: 'device', body: pushBody }, ({ device, body }) => pushChanges(h, device, body.changes)));
  router.get(
    '/sync/v1/pull',
    endpoint(h, { access: 'device', query: pullQuery }, ({ res, device, query }) => {
      const gone = new AbortController();
      // The response, not the (keep-alive) socket: one listener per pull, gone with it.
      res.once('close', () => gone.abort());
      return pullChanges(h, device, query, gone.signal);
    }),
  );

  router.head(
    '/sync/v1/blobs/:sha256',
    endpoint(h, { access: 'device', params: shaParams }, async ({ res, device, params }) => {
      const size = await hasBlob(h, device, params.sha256);
      res.status(size === null ? 404 : 200);
      if (size !== null) res.setHeader('content-length', String(size));
      res.end();
    }),
  );
  router.put(
    '/sync/v1/blobs/:sha256',
    express.raw({ type: () => true, limit: MAX_BLOB_BYTES }),
    endpoint(h, { access: 'device', params: shaParams }, async ({ req, res, device, params }) => {
      if (device.role === 'viewer') throw new ForbiddenError('A viewer cannot change data');
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { created } = await putBlob(h, device, params.sha256, data);
      res.status(created ? 201 : 200).json({ sha256: params.sha256, size: data.length });
    }),
  );
  router.get(
    '/sync/v1/blobs/:sha256',
    endpoint(h, { access: 'device', params: shaParams }, async ({ res, device, params }) => {
      const data = await getBlob(h, device, params.sha256);
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('cache-control', 'private, max-age=31536000, immutable');
      res.end(data);
    }),
  );
  return router;
}
