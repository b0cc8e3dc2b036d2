// The hosted instance's HTTP surface: `/sync/v1` for devices, `/api/health` for operators, and
// (from their own files) the public signing and relay endpoints. Every endpoint is declared once
// with its documentation; `GET /sync/v1/openapi.json` is generated from the same specs.
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { createRateLimiter } from '../http/rate-limit.js';
import {
  MAX_BLOB_BYTES,
  MAX_PUSH_BYTES,
  PROTOCOL_VERSION,
  confirmationSent,
  deviceCode,
  deviceSchema,
  enrolment,
  hostedInfo,
  invitationBody,
  invitationCreated,
  invitationSchema,
  joinBody,
  memberRoleBody,
  passwordChangeBody,
  passwordCheckBody,
  personSchema,
  renameDeviceBody,
  linkBody,
  pullPage,
  pullQuery,
  pushBody,
  pushResponse,
  rotatedToken,
  type HostedInfo,
} from '../sync/protocol.js';
import { VERSION } from '../version.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { canManage, createDeviceCode, joinWithCode, linkEntity, listDevices, renameDevice, revokeDevice, rotateDeviceToken } from './devices.js';
import { createInvitation, listInvitations, resendInvitation, revokeInvitation } from './invitations.js';
import { changeRole, removePerson } from './people.js';
import { changeAccountPassword, checkAccountPassword } from './accounts.js';
import { endpoint, mountEndpoints, type HostedEndpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { hostedOpenApi } from './openapi.js';
import { pushChanges } from './push.js';
import { pullChanges, pullPageJson } from './pull.js';
import { streamSnapshot } from './snapshot.js';
import { getBlob, hasBlob, putBlob } from './blobs.js';
import { receiveBlobBody, sendBlob } from './blob-http.js';
import { relayEndpoints } from './relay-routes.js';
import { signingEndpoints } from './signing-routes.js';
import { mailEndpoints } from './mail-routes.js';
import { ForbiddenError, HttpError } from '../http/errors.js';
import { isConfirmationSent } from './accounts.js';
import { createSignInThrottle } from './sign-in-throttle.js';
import { storeWebhookSecret, webhookSecretAnswer, webhookSecretBody, webhookSecretForDeliverer, webhookSecretParams, webhookSecretQuery } from './webhook-secrets.js';

const shaParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256') });
const deviceParams = z.object({ deviceId: z.uuid('must be a UUID') });
const invitationParams = z.object({ invitationId: z.uuid('must be a UUID') });
const memberParams = z.object({ accountId: z.uuid('must be a UUID') });
/** Where this instance is reached, for join links: its public URL, else the address the device called. */
const baseOf = (h: HostedContext, req: { protocol: string; get(name: string): string | undefined }) => h.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
const healthResponse = z.object({ status: z.literal('ok'), version: z.string(), role: z.literal('hosted') });
const blobStored = z.object({ sha256: z.string(), size: z.number().int() });

const MANAGERS = ['owner', 'admin'] as const;
const WRITERS = ['owner', 'admin', 'member'] as const;
const signInErrors = {
  401: 'Wrong e-mail, password or confirmation code',
  429: 'Too many attempts from this address, or too many failed sign-ins from it or at this account (Retry-After)',
};
/** 202 of link and join, told in their description (the document has one success status per operation). */
const confirmationNote = ` 202 \`${JSON.stringify(confirmationSent.shape.confirmation.value)}\`: the credentials are no confirmed account's; a code went to \`email\` (alike for known and unknown addresses): repeat the request with \`confirmationCode\`.`;

/** Every endpoint of the hosted instance, in document order. */
export function hostedEndpoints(h: HostedContext, limits: HostedLimits): HostedEndpoint[] {
  const limiter = (rule: keyof HostedLimits) => createRateLimiter(h.clock, limits[rule]);
  const [push, pull, snapshot, blobs, manage, signIn, badTokens] = (['push', 'pull', 'snapshot', 'blobs', 'manage', 'signIn', 'badToken'] as const).map(limiter);
  const device = { access: 'device' as const, badTokens };
  const throttled = createSignInThrottle(h.clock, limits);
  /** 201 with the enrolment, or 202 "confirmation sent" (the caller repeats with `confirmationCode`). */
  const enrolled = (res: Response, result: unknown) => {
    if (!isConfirmationSent(result)) return result;
    res.status(202).json(result);
  };
  const json = { before: [express.json({ limit: MAX_PUSH_BYTES })], maxBodyBytes: MAX_PUSH_BYTES };
  const instance = ['Instance'];
  const devices = ['Sync: entities and devices'];
  const people = ['Sync: people'];
  const changes = ['Sync: changes'];
  const files = ['Sync: files'];

  const endpoints: HostedEndpoint[] = [
    endpoint(h, { method: 'get', path: '/api/health', summary: 'Liveness of the instance', tags: instance, access: 'public', response: healthResponse }, () => ({ status: 'ok' as const, version: VERSION, role: 'hosted' as const })),
    endpoint(h, { method: 'get', path: '/sync/v1/info', summary: 'What this instance accepts (protocol, schema versions, public URL)', description: 'A device checks it before linking too.', tags: instance, access: 'public', response: hostedInfo }, () => {
      const info: HostedInfo = { serverTime: serverTime(h), protocol: 'bureau-sync/1', minSchemaVersion: h.minSchemaVersion, schemaVersion: PROTOCOL_VERSION, ...(h.publicUrl ? { publicUrl: h.publicUrl } : {}) };
      return info;
    }),

    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/link',
        summary: "Link a desktop entity: create it here (or enrol one more device of an owner or admin) and get this device's token",
        description: `The first link of an entity creates it with this account as owner. The token (\`deviceToken\`) is shown once. 403 when the entity is someone else's, or this account's role there is not owner or admin.${confirmationNote}`,
        tags: devices,
        access: 'public',
        limit: signIn,
        ...json,
        body: linkBody,
        response: enrolment,
        status: 201,
        alsoAnswers: { 202: { description: 'The address must be confirmed first: a code was mailed to it (or, for an existing account, a note to its owner); repeat the request with `confirmationCode`', schema: confirmationSent } },
        errors: { ...signInErrors, 403: 'The entity is already linked by someone else' },
      },
      async ({ req, res, body }) => enrolled(res, await throttled({ ip: req.ip ?? '', email: body.email }, () => linkEntity(h, body))),
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/join',
        summary: 'Join an entity with an add-device code or an invitation code',
        description: `An add-device code (10 minutes, single use) enrols another install of a member; an invitation code (7 days) makes its e-mail a member.${confirmationNote}`,
        tags: devices,
        access: 'public',
        limit: signIn,
        ...json,
        body: joinBody,
        response: enrolment,
        status: 201,
        alsoAnswers: { 202: { description: 'The address must be confirmed first: a code was mailed to it (or, for an existing account, a note to its owner); repeat the request with `confirmationCode`', schema: confirmationSent } },
        errors: { ...signInErrors, 400: 'Bad input, or the code is invalid, expired or already used', 403: 'This account is not a member of the entity the add-device code belongs to' },
      },
      async ({ req, res, body }) => enrolled(res, await throttled({ ip: req.ip ?? '', email: body.email }, () => joinWithCode(h, body))),
    ),

    endpoint(
      h,
      { method: 'post', path: '/sync/v1/devices/codes', summary: 'A single-use, 10-minute code another install of a member joins with', tags: devices, ...device, roles: { only: MANAGERS, refusal: 'Only an owner or admin can add devices' }, limit: manage, response: deviceCode, status: 201 },
      ({ device }) => {
        if (!canManage(device)) throw new ForbiddenError('Only an owner or admin can add devices');
        return createDeviceCode(h, device);
      },
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/invitations',
        summary: 'Invite a person (by e-mail) into the entity with a role',
        description:
          "Mails her a link to this instance's join page (when it has SMTP: `mailed`), and answers the code and link once (to pass on by other means). Her row ('invited') reaches every device. An earlier pending invitation of the same address is withdrawn. Only an owner invites an owner (403); 409 when she is a member already.",
        tags: people,
        ...device,
        roles: { only: MANAGERS, refusal: 'Only an owner or admin can invite' },
        limit: manage,
        ...json,
        body: invitationBody,
        response: invitationCreated,
        status: 201,
        errors: { 409: 'Already a member' },
      },
      ({ req, device, body }) => createInvitation(h, device, body, baseOf(h, req)),
    ),
    endpoint(
      h,
      { method: 'get', path: '/sync/v1/invitations', summary: "The entity's invitations with their state (sent, accepted, expired, revoked)", tags: people, ...device, roles: { only: MANAGERS, refusal: 'Only an owner or admin can see invitations' }, limit: manage, response: z.array(invitationSchema) },
      ({ device }) => listInvitations(h, device),
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/invitations/{invitationId}/resend',
        summary: 'A new code for a pending or expired invitation, mailed again (the old code stops working)',
        tags: people,
        ...device,
        roles: { only: MANAGERS, refusal: 'Only an owner or admin can invite' },
        limit: manage,
        params: invitationParams,
        response: invitationCreated,
        errors: { 404: 'No such invitation in this entity', 409: 'Accepted already', 410: 'Revoked' },
      },
      ({ req, device, params }) => resendInvitation(h, device, params.invitationId, baseOf(h, req)),
    ),
    endpoint(
      h,
      { method: 'delete', path: '/sync/v1/invitations/{invitationId}', summary: 'Revoke a pending invitation (idempotent)', description: "Its code stops working; the person's 'invited' row goes from every device.", tags: people, ...device, roles: { only: MANAGERS, refusal: 'Only an owner or admin can invite' }, limit: manage, params: invitationParams, response: invitationSchema, errors: { 404: 'No such invitation in this entity', 409: 'Accepted already: remove the member instead' } },
      ({ device, params }) => revokeInvitation(h, device, params.invitationId),
    ),
    endpoint(
      h,
      {
        method: 'patch',
        path: '/sync/v1/members/{accountId}',
        summary: "Change a member's role (enforced here at once, and reaching every device)",
        description: 'Only an owner appoints, demotes or changes an owner (403); the last owner cannot be demoted (409).',
        tags: people,
        ...device,
        roles: { only: MANAGERS, refusal: 'Only an owner or admin can change members' },
        limit: manage,
        ...json,
        params: memberParams,
        body: memberRoleBody,
        response: personSchema,
        errors: { 404: 'Not a member of this entity', 409: 'Would leave the entity without an owner' },
      },
      async ({ device, params, body }) => changeRole(h, device, params.accountId, body.role),
    ),
    endpoint(
      h,
      {
        method: 'delete',
        path: '/sync/v1/members/{accountId}',
        summary: 'Remove a member: her devices of the entity are revoked at once',
        description: "Her waiting pulls answer 401 at once; every other device shows her as removed (her name still resolves). Only an owner removes an owner (403); the last owner cannot be removed (409).",
        tags: people,
        ...device,
        roles: { only: MANAGERS, refusal: 'Only an owner or admin can change members' },
        limit: manage,
        params: memberParams,
        response: personSchema,
        errors: { 404: 'Not a member of this entity', 409: 'Would leave the entity without an owner' },
      },
      async ({ device, params }) => removePerson(h, device, params.accountId),
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/account/password',
        summary: "Change the password of the calling device's account (one credential on all her devices)",
        description: 'Given the current password (403 when wrong; failures count like failed sign-ins, 429). Her other devices take the new one at their next sign-in.',
        tags: people,
        ...device,
        limit: signIn,
        ...json,
        body: passwordChangeBody,
        status: 204,
        errors: { 403: 'The current password is wrong', ...signInErrors },
      },
      async ({ req, device, body }) => {
        await throttled({ ip: req.ip ?? '', email: device.accountId }, () => changeAccountPassword(h, device.accountId, body), (e) => e instanceof ForbiddenError);
      },
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/account/password/check',
        summary: "Whether a password is the calling device's account's (204, else 403)",
        description: 'A device whose local hash no longer matches (the password was changed on another device) asks here before it takes the new one. Failures count like failed sign-ins (429).',
        tags: people,
        ...device,
        limit: signIn,
        ...json,
        body: passwordCheckBody,
        status: 204,
        errors: { 403: 'Not the password', ...signInErrors },
      },
      async ({ req, device, body }) => {
        await throttled({ ip: req.ip ?? '', email: device.accountId }, () => checkAccountPassword(h, device.accountId, body.password), (e) => e instanceof ForbiddenError);
      },
    ),
    endpoint(
      h,
      { method: 'get', path: '/sync/v1/devices', summary: "The entity's devices (owners and admins), or the caller's own (other members)", tags: devices, ...device, limit: manage, response: z.array(deviceSchema) },
      ({ device }) => listDevices(h, device),
    ),
    endpoint(
      h,
      { method: 'patch', path: '/sync/v1/devices/{deviceId}', summary: "Rename a device: one's own, or any of the entity's as owner or admin", tags: devices, ...device, limit: manage, ...json, params: deviceParams, body: renameDeviceBody, response: deviceSchema, errors: { 404: "No such device in the caller's entity (or not the caller's own)", 409: 'Revoked' } },
      ({ device, params, body }) => renameDevice(h, device, params.deviceId, body.name),
    ),
    endpoint(
      h,
      { method: 'post', path: '/sync/v1/devices/rotate', summary: "A new token for the calling device", description: 'The token called with keeps working until the new one is first used; any older one stops at once.', tags: devices, ...device, limit: manage, response: rotatedToken },
      ({ device, token }) => rotateDeviceToken(h, device, token),
    ),
    endpoint(
      h,
      { method: 'delete', path: '/sync/v1/devices/{deviceId}', summary: "Revoke a device: one's own, or any of the entity's as owner or admin", description: 'Idempotent. A waiting pull of the revoked device answers 401 at once.', tags: devices, ...device, limit: manage, params: deviceParams, status: 204, errors: { 404: "No such device in the caller's entity (or not the caller's own, for members and viewers)" } },
      async ({ device, params }) => {
        await revokeDevice(h, device, params.deviceId);
        // The revoked device's waiting pull answers now (401), so it learns at once rather than at its next request.
        await h.feed.changed(device.entityId).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
      },
    ),

    endpoint(
      h,
      {
        method: 'post',
        path: '/sync/v1/push',
        summary: "Append a batch of the device's changes to the entity's log",
        description: 'At most 500 changes and 1 MB. Each change is answered accepted, duplicate (idempotent by change id) or rejected (with its reason); the changes of one group are accepted or refused together.',
        tags: changes,
        ...device,
        roles: { only: WRITERS, refusal: 'A viewer cannot change data' },
        limit: push,
        ...json,
        body: pushBody,
        response: pushResponse,
        errors: { 409: "Clock skew: the device's clock is more than 10 minutes ahead (`details.serverTime`)", 426: 'Update required: a change carries a schema version older than this instance accepts' },
      },
      async ({ device, body }) => {
        // The oldest schema version this instance accepts can be raised by its operator past the one it was built with.
        if (body.changes.some((c) => c.schemaVersion < h.minSchemaVersion)) throw new HttpError(426, `Update required: this instance accepts schema version ${h.minSchemaVersion} and later`);
        const answer = await pushChanges(h, device, body.changes);
        // Waiting pulls (here and, through PostgreSQL, in other processes) answer now rather than at their next look.
        if (answer.results.some((r) => r.status === 'accepted')) await h.feed.changed(device.entityId).catch((err: unknown) => h.log.warn({ err }, 'change feed'));
        return answer;
      },
    ),
    endpoint(
      h,
      { method: 'get', path: '/sync/v1/pull', summary: "The entity's changes after a cursor, in commit order (long-poll with waitMs)", description: '`mustRefetch`: the cursor is older than the log keeps, or newer than the log: take a new snapshot.', tags: changes, ...device, limit: pull, query: pullQuery, response: pullPage },
      async ({ res, device, query }) => {
        const gone = new AbortController();
        // The response, not the (keep-alive) socket: one listener per pull, gone with it.
        res.once('close', () => gone.abort());
        const page = await pullChanges(h, device, query, gone.signal);
        if (!res.headersSent) res.status(200).type('application/json').send(pullPageJson(page));
      },
    ),
    endpoint(
      h,
      { method: 'get', path: '/sync/v1/snapshot', summary: "Every current row of the entity, for a new device (NDJSON: header, rows, end)", description: 'A header line, one line per row (`table`, `rowId`, `data`, `stamps`, `fact`) and an end line with the `seq` to pull from.', tags: changes, ...device, limit: snapshot, produces: 'application/x-ndjson' },
      ({ res, device }) => streamSnapshot(h, device, res),
    ),

    endpoint(
      h,
      { method: 'head', path: '/sync/v1/blobs/{sha256}', summary: 'Whether a file is stored for the entity (200 with its Content-Length, 404 without a body)', tags: files, ...device, limit: blobs, params: shaParams, errors: { 404: 'Not stored for this entity (no body: a HEAD answer)' } },
      async ({ res, device, params }) => {
        const size = await hasBlob(h, device, params.sha256);
        res.status(size === null ? 404 : 200);
        if (size !== null) res.setHeader('content-length', String(size));
        res.end();
      },
    ),
    endpoint(
      h,
      {
        method: 'put',
        path: '/sync/v1/blobs/{sha256}',
        summary: 'Store a file for the entity, named by its SHA-256 (201; 200 when it was stored already)',
        description: 'Upload a file before pushing the row that names it.',
        tags: files,
        ...device,
        roles: { only: WRITERS, refusal: 'A viewer cannot change data' },
        limit: blobs,
        maxBodyBytes: MAX_BLOB_BYTES,
        params: shaParams,
        consumes: 'application/octet-stream',
        response: blobStored,
        status: 201,
        errors: { 400: 'Bad input, or the body does not hash to the sha256 in the path' },
      },
      async ({ req, res, device, params }) => {
        if (device.role === 'viewer') throw new ForbiddenError('A viewer cannot change data');
        const { created, size } = await receiveBlobBody(req, res, (body) => putBlob(h, device, params.sha256, body));
        res.status(created ? 201 : 200).json({ sha256: params.sha256, size });
      },
    ),
    endpoint(
      h,
      { method: 'get', path: '/sync/v1/blobs/{sha256}', summary: 'A file stored for the entity', tags: files, ...device, limit: blobs, params: shaParams, produces: 'application/octet-stream', errors: { 404: 'Not stored for this entity' } },
      async ({ res, device, params }) => {
        const blob = await getBlob(h, device, params.sha256);
        res.setHeader('content-type', 'application/octet-stream');
        res.setHeader('cache-control', 'private, max-age=31536000, immutable');
        await sendBlob(res, blob, h.log);
      },
    ),
    endpoint(
      h,
      {
        method: 'put',
        path: '/sync/v1/webhook-secrets',
        summary: "Give this instance a webhook subscription's signing secret (one version)",
        description: 'Secrets never travel in the log (every device reads it): the device that makes or rotates one sends it here; it is stored sealed and signs what this instance delivers.',
        tags: ['Sync: webhooks'],
        ...device,
        roles: { only: MANAGERS, refusal: 'Only an owner or admin manages webhooks' },
        limit: manage,
        ...json,
        body: webhookSecretBody,
        status: 204,
      },
      async ({ device, body }) => void (await storeWebhookSecret(h, device, body)),
    ),
    endpoint(
      h,
      {
        method: 'get',
        path: '/sync/v1/webhook-secrets/{subscriptionId}',
        summary: 'The signing secret in force, for the device the subscription names as its deliverer',
        tags: ['Sync: webhooks'],
        ...device,
        limit: manage,
        params: webhookSecretParams,
        query: webhookSecretQuery,
        response: webhookSecretAnswer,
        errors: { 404: 'Not the deliverer, not that version, or no device has sent the secret yet' },
      },
      ({ device, params, query }) => webhookSecretForDeliverer(h, device, params.subscriptionId, query.version),
    ),
    ...relayEndpoints(h, limits),
    ...signingEndpoints(h, limits),
    ...mailEndpoints(h, limits),
  ];
  let document: ReturnType<typeof hostedOpenApi> | null = null;
  endpoints.push(
    endpoint(h, { method: 'get', path: '/sync/v1/openapi.json', summary: 'This document', tags: instance, access: 'public', response: z.record(z.string(), z.unknown()) }, () => (document ??= hostedOpenApi(endpoints, VERSION))),
  );
  return endpoints;
}

export function hostedRouter(h: HostedContext, limits: HostedLimits): Router {
  const router = express.Router();
  // Every answer says what time it is here (devices measure their clock's offset from it) and the
  // oldest schema version accepted (an older device goes read-only instead of writing).
  router.use((_req, res, next) => {
    res.setHeader('x-server-time', serverTime(h));
    res.setHeader('x-min-schema-version', String(h.minSchemaVersion));
    next();
  });
  mountEndpoints(router, hostedEndpoints(h, limits));
  return router;
}
