// The hosted instance's HTTP surface: `/sync/v1` for devices, `/api/health` for operators.
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { createRateLimiter } from '../http/rate-limit.js';
import { MAX_PUSH_BYTES, PROTOCOL_VERSION, invitationBody, joinBody, linkBody, pullQuery, pushBody, type HostedInfo } from '../sync/protocol.js';
import { VERSION } from '../version.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { canManage, createDeviceCode, createInvitation, joinWithCode, linkEntity, listDevices, revokeDevice, rotateDeviceToken } from './devices.js';
import { endpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { pushChanges } from './push.js';
import { pullChanges, pullPageJson } from './pull.js';
import { streamSnapshot } from './snapshot.js';
import { getBlob, hasBlob, putBlob } from './blobs.js';
import { receiveBlobBody, sendBlob } from './blob-http.js';
import { relayRouter } from './relay-routes.js';
import { ForbiddenError, HttpError } from '../http/errors.js';
import { isConfirmationSent } from './accounts.js';
import { createSignInThrottle } from './sign-in-throttle.js';

const shaParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256') });
const deviceParams = z.object({ deviceId: z.uuid('must be a UUID') });

export function hostedRouter(h: HostedContext, limits: HostedLimits): Router {
  const router = express.Router();
  const limiter = (rule: keyof HostedLimits) => createRateLimiter(h.clock, limits[rule]);
  const [push, pull, snapshot, blobs, manage, signIn, badTokens] = (['push', 'pull', 'snapshot', 'blobs', 'manage', 'signIn', 'badToken'] as const).map(limiter);
  const device = { access: 'device' as const, badTokens };
  const throttled = createSignInThrottle(h.clock, limits);
  /** 201 with the enrolment, or 202 "confirmation sent" (the caller repeats with `confirmationCode`). */
  const enrolled = (res: Response, result: unknown) => {
    if (!isConfirmationSent(result)) return result;
    res.status(202).json(result);
  };
  const json = express.json({ limit: MAX_PUSH_BYTES });

  // Every answer says what time it is here (devices measure their clock's offset from it) and the
  // oldest schema version accepted (an older device goes read-only instead of writing).
  router.use((_req, res, next) => {
    res.setHeader('x-server-time', serverTime(h));
    res.setHeader('x-min-schema-version', String(h.minSchemaVersion));
    next();
  });

  router.get('/api/health', (_req, res) => void res.json({ status: 'ok', version: VERSION, role: 'hosted' }));
  router.get('/sync/v1/info', (_req, res) => {
    const info: HostedInfo = { serverTime: serverTime(h), protocol: 'bureau-sync/1', minSchemaVersion: h.minSchemaVersion, schemaVersion: PROTOCOL_VERSION, ...(h.publicUrl ? { publicUrl: h.publicUrl } : {}) };
    res.json(info);
  });

  // Link and join (see linkBody in sync/protocol.ts for the confirmation exchange): 201 signed in
  // and enrolled; 202 `{confirmation: 'sent', email}` when the credentials are no confirmed
  // account's; 401 wrong credentials or confirmation code; 429 with Retry-After past the failure
  // limits per address and per account.
  router.post(
    '/sync/v1/link',
    json,
    endpoint(h, { access: 'public', limit: signIn, body: linkBody, status: 201 }, async ({ req, res, body }) => enrolled(res, await throttled({ ip: req.ip ?? '', email: body.email }, () => linkEntity(h, body)))),
  );
  router.post(
    '/sync/v1/join',
    json,
    endpoint(h, { access: 'public', limit: signIn, body: joinBody, status: 201 }, async ({ req, res, body }) => enrolled(res, await throttled({ ip: req.ip ?? '', email: body.email }, () => joinWithCode(h, body)))),
  );

  router.post(
    '/sync/v1/devices/codes',
    endpoint(h, { ...device, limit: manage, status: 201 }, ({ device }) => {
      if (!canManage(device)) throw new ForbiddenError('Only an owner or admin can add devices');
      return createDeviceCode(h, device);
    }),
  );
  router.post('/sync/v1/invitations', json, endpoint(h, { ...device, limit: manage, body: invitationBody, status: 201 }, ({ device, body }) => createInvitation(h, device, body)));
  router.get('/sync/v1/devices', endpoint(h, { ...device, limit: manage }, ({ device }) => listDevices(h, device)));
  router.post('/sync/v1/devices/rotate', endpoint(h, { ...device, limit: manage }, ({ device, token }) => rotateDeviceToken(h, device, token)));
  router.delete(
    '/sync/v1/devices/:deviceId',
    endpoint(h, { ...device, limit: manage, params: deviceParams }, async ({ device, params }) => {
      await revokeDevice(h, device, params.deviceId);
      // The revoked device's waiting pull answers now (401), so it learns at once rather than at its next request.
      await h.feed.changed(device.entityId).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
    }),
  );

  router.post(
    '/sync/v1/push',
    json,
    endpoint(h, { ...device, limit: push, body: pushBody }, async ({ device, body }) => {
      // The oldest schema version this instance accepts can be raised by its operator past the one it was built with.
      if (body.changes.some((c) => c.schemaVersion < h.minSchemaVersion)) throw new HttpError(426, `Update required: this instance accepts schema version ${h.minSchemaVersion} and later`);
      const answer = await pushChanges(h, device, body.changes);
      // Waiting pulls (here and, through PostgreSQL, in other processes) answer now rather than at their next look.
      if (answer.results.some((r) => r.status === 'accepted')) await h.feed.changed(device.entityId).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
      return answer;
    }),
  );
  router.get(
    '/sync/v1/pull',
    endpoint(h, { ...device, limit: pull, query: pullQuery }, async ({ res, device, query }) => {
      const gone = new AbortController();
      // The response, not the (keep-alive) socket: one listener per pull, gone with it.
      res.once('close', () => gone.abort());
      const page = await pullChanges(h, device, query, gone.signal);
      if (!res.headersSent) res.status(200).type('application/json').send(pullPageJson(page));
    }),
  );
  router.get('/sync/v1/snapshot', endpoint(h, { ...device, limit: snapshot }, ({ res, device }) => streamSnapshot(h, device, res)));

  router.head(
    '/sync/v1/blobs/:sha256',
    endpoint(h, { ...device, limit: blobs, params: shaParams }, async ({ res, device, params }) => {
      const size = await hasBlob(h, device, params.sha256);
      res.status(size === null ? 404 : 200);
      if (size !== null) res.setHeader('content-length', String(size));
      res.end();
    }),
  );
  router.put(
    '/sync/v1/blobs/:sha256',
    endpoint(h, { ...device, limit: blobs, params: shaParams }, async ({ req, res, device, params }) => {
      if (device.role === 'viewer') throw new ForbiddenError('A viewer cannot change data');
      const { created, size } = await receiveBlobBody(req, res, (body) => putBlob(h, device, params.sha256, body));
      res.status(created ? 201 : 200).json({ sha256: params.sha256, size });
    }),
  );
  router.get(
    '/sync/v1/blobs/:sha256',
    endpoint(h, { ...device, limit: blobs, params: shaParams }, async ({ res, device, params }) => {
      const blob = await getBlob(h, device, params.sha256);
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('cache-control', 'private, max-age=31536000, immutable');
      await sendBlob(res, blob, h.log);
    }),
  );
  router.use(relayRouter(h, limits));
  return router;
}
