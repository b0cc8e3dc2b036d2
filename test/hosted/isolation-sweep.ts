// Hosted isolation sweep (issue 25), driven by GET /sync/v1/openapi.json: two linked entities A and
// B with real rows, files, devices and a signing link. Every operation of the document has a probe
// below — an operation the sweep does not know fails the first test, so a new route cannot be
// missed. A's owner device sends B's ids wherever an operation takes one (devices, files, change
// ids, rows, entity, add-device codes): the answer is 401/403/404 as documented, or — where an id
// is only a name inside A's own entity (a pushed row, a file's hash) — exactly what an id that was
// never issued gets. Public operations answer a device token exactly as they answer no
// credentials. A viewer's device is refused every write (403, or 404 for another's device). No
// answer to A carries an id or e-mail of B's, and B's data reads the same before and after.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { formatStamp } from '../../server/sync/hlc.js';
import { call, type Reply } from './client.js';
import { seedHostedEntity, type HostedSeed } from './seed.js';

interface Doc {
  paths: Record<string, Record<string, { security?: unknown[]; description?: string; responses: Record<string, unknown> }>>;
}

interface Ctx {
  url: string;
  a: HostedSeed;
  b: HostedSeed;
  /** Sends as `token` (none: anonymous) and records the exchange for the leak scan. */
  send(method: string, path: string, opts?: { token?: string; body?: unknown; raw?: Buffer }): Promise<Reply>;
}

/** One check's outcome: null when it held, else what went wrong. */
type Check = (c: Ctx) => Promise<string | null>;

const expectStatus = (what: string, res: Reply, ...ok: number[]) => (ok.includes(res.status) ? null : `${what}: expected ${ok.join(' or ')}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);

/** A public operation: a device token of A changes nothing (same status and body as without credentials). */
function sameAsAnonymous(method: string, path: (c: Ctx) => string, body?: (c: Ctx) => unknown): Check {
  return async (c) => {
    const anon = await c.send(method, path(c), { body: body?.(c) });
    const withToken = await c.send(method, path(c), { token: c.a.ownerToken, body: body?.(c) });
    // 502/503 are documented for the relay (no chain is configured here); any other 5xx is a defect.
    const broken = (r: Reply) => r.status >= 500 && !(path(c).startsWith('/api/relay/') && [502, 503].includes(r.status));
    if (broken(anon) || broken(withToken)) return `${method} ${path(c)}: server error ${anon.status}/${withToken.status}`;
    const strip = (r: Reply) => JSON.stringify(r.body).replace(/"serverTime":"[^"]*"/g, '');
    return anon.status === withToken.status && (method !== 'GET' || strip(anon) === strip(withToken)) ? null : `${method} ${path(c)}: anonymous ${anon.status}, with A's device token ${withToken.status}`;
  };
}

/** The account of an entity's owner device (read as that owner; not an exchange of A's). */
async function ownerAccountOf(url: string, seed: HostedSeed): Promise<string> {
  const devices = await call(url, 'GET', '/sync/v1/devices', { token: seed.ownerToken });
  return devices.body.find((d: { id: string }) => d.id === seed.ownerDeviceId).accountId;
}

const stamp = () => formatStamp({ wallMs: Date.now(), counter: 0, node: crypto.randomUUID().replace(/-/g, '') });

/** Per operation: what A's owner device does with B's ids, and what a viewer of A may not write. */
const PROBES: Record<string, { crossEntity: Check[]; viewer?: Check[]; viewerMayWrite?: string }> = {
  'GET /api/health': { crossEntity: [sameAsAnonymous('GET', () => '/api/health')] },
  'GET /sync/v1/info': { crossEntity: [sameAsAnonymous('GET', () => '/sync/v1/info')] },
  'GET /sync/v1/openapi.json': { crossEntity: [sameAsAnonymous('GET', () => '/sync/v1/openapi.json')] },
  'POST /sync/v1/link': {
    crossEntity: [
      // A's owner, with A's own password, naming B's entity: "linked by someone else", whoever asks.
      async (c) => expectStatus("link to B's entity", await c.send('POST', '/sync/v1/link', { body: { email: c.a.email, password: c.a.password, entityId: c.b.entityId, entityName: 'Taken', deviceName: 'Intruder' } }), 403),
      sameAsAnonymous('POST', () => '/sync/v1/link', (c) => ({ email: c.b.email, password: 'not the password of B', entityId: c.b.entityId, entityName: 'x', deviceName: 'x' })),
    ],
  },
  'POST /sync/v1/join': {
    crossEntity: [
      // B's add-device code, redeemed with A's account: not a member (and the code is not spent: B joins with it after).
      async (c) => {
        const refused = expectStatus("join with B's code as A", await c.send('POST', '/sync/v1/join', { body: { code: c.b.codes[0], email: c.a.email, password: c.a.password, deviceName: 'Intruder' } }), 403);
        if (refused) return refused;
        const owner = await c.send('POST', '/sync/v1/join', { body: { code: c.b.codes[0], email: c.b.email, password: c.b.password, deviceName: 'B laptop' } });
        return expectStatus("B joins with its code after A's attempt", owner, 201);
      },
      sameAsAnonymous('POST', () => '/sync/v1/join', (c) => ({ code: c.b.codes[1], email: c.a.email, password: c.a.password, deviceName: 'x' })),
    ],
  },
  'POST /sync/v1/devices/codes': {
    // A's code belongs to A's entity: B's owner cannot join A with it.
    crossEntity: [
      async (c) => {
        const code = await c.send('POST', '/sync/v1/devices/codes', { token: c.a.ownerToken });
        return expectStatus('code', code, 201) ?? expectStatus("B's owner joins with A's code", await c.send('POST', '/sync/v1/join', { body: { code: code.body.code, email: c.b.email, password: c.b.password, deviceName: 'x' } }), 403);
      },
    ],
    viewer: [async (c) => expectStatus('viewer add-device code', await c.send('POST', '/sync/v1/devices/codes', { token: c.a.viewerToken }), 403)],
  },
  'POST /sync/v1/invitations': {
    // An invitation is into A's entity only: the person who redeems it joins A.
    crossEntity: [
      async (c) => {
        const email = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
        const inv = await c.send('POST', '/sync/v1/invitations', { token: c.a.ownerToken, body: { email, role: 'viewer' } });
        if (inv.status !== 201) return `invitation: ${inv.status}`;
        const joined = await c.send('POST', '/sync/v1/join', { body: { code: inv.body.code, email, password: 'correct horse battery staple', deviceName: 'Invitee' } });
        return expectStatus('join', joined, 201) ?? (joined.body.entity.id === c.a.entityId ? null : `A's invitation joined ${joined.body.entity.id}`);
      },
    ],
    viewer: [async (c) => expectStatus('viewer invitation', await c.send('POST', '/sync/v1/invitations', { token: c.a.viewerToken, body: { email: 'x@example.com', role: 'member' } }), 403)],
  },
  'GET /sync/v1/invitations': {
    crossEntity: [
      async (c) => {
        const list = await c.send('GET', '/sync/v1/invitations', { token: c.a.ownerToken });
        return expectStatus('invitations', list, 200) ?? (list.body.every((i: { email: string }) => !i.email.includes(c.b.email)) ? null : "A's invitations show B's");
      },
    ],
  },
  'POST /sync/v1/invitations/{invitationId}/resend': {
    crossEntity: [async (c) => expectStatus('resend an invitation A never made', await c.send('POST', `/sync/v1/invitations/${crypto.randomUUID()}/resend`, { token: c.a.ownerToken }), 404)],
    viewer: [async (c) => expectStatus('viewer resends', await c.send('POST', `/sync/v1/invitations/${crypto.randomUUID()}/resend`, { token: c.a.viewerToken }), 403)],
  },
  'DELETE /sync/v1/invitations/{invitationId}': {
    crossEntity: [async (c) => expectStatus('revoke an invitation A never made', await c.send('DELETE', `/sync/v1/invitations/${crypto.randomUUID()}`, { token: c.a.ownerToken }), 404)],
    viewer: [async (c) => expectStatus('viewer revokes', await c.send('DELETE', `/sync/v1/invitations/${crypto.randomUUID()}`, { token: c.a.viewerToken }), 403)],
  },
  'PATCH /sync/v1/members/{accountId}': {
    crossEntity: [async (c) => expectStatus("change the role of B's owner", await c.send('PATCH', `/sync/v1/members/${await ownerAccountOf(c.url, c.b)}`, { token: c.a.ownerToken, body: { role: 'viewer' } }), 404)],
    viewer: [async (c) => expectStatus("viewer changes the owner's role", await c.send('PATCH', `/sync/v1/members/${await ownerAccountOf(c.url, c.a)}`, { token: c.a.viewerToken, body: { role: 'viewer' } }), 403)],
  },
  'DELETE /sync/v1/members/{accountId}': {
    crossEntity: [async (c) => expectStatus("remove B's owner", await c.send('DELETE', `/sync/v1/members/${await ownerAccountOf(c.url, c.b)}`, { token: c.a.ownerToken }), 404)],
    viewer: [async (c) => expectStatus('viewer removes the owner', await c.send('DELETE', `/sync/v1/members/${await ownerAccountOf(c.url, c.a)}`, { token: c.a.viewerToken }), 403)],
  },
  'POST /sync/v1/account/password': {
    // Always the caller's own account: B's password is no current password of A's.
    crossEntity: [async (c) => expectStatus("B's password as A's current one", await c.send('POST', '/sync/v1/account/password', { token: c.a.ownerToken, body: { currentPassword: c.b.password + ' (not A)', newPassword: 'taken over by A at last' } }), 403)],
    viewerMayWrite: "the viewer's own account password (no data of the entity changes)",
  },
  'POST /sync/v1/account/password/check': {
    crossEntity: [async (c) => expectStatus("B's password checked as A's", await c.send('POST', '/sync/v1/account/password/check', { token: c.a.ownerToken, body: { password: c.b.password + ' (not A)' } }), 403)],
    viewerMayWrite: "checks the viewer's own password (nothing changes)",
  },
  'PATCH /sync/v1/devices/{deviceId}': {
    crossEntity: [async (c) => expectStatus("rename B's device", await c.send('PATCH', `/sync/v1/devices/${c.b.spareDeviceId}`, { token: c.a.ownerToken, body: { name: 'Renamed by A' } }), 404)],
    viewer: [async (c) => expectStatus("viewer renames the owner's device", await c.send('PATCH', `/sync/v1/devices/${c.a.ownerDeviceId}`, { token: c.a.viewerToken, body: { name: 'Renamed' } }), 404)],
  },
  'GET /sync/v1/devices': {
    crossEntity: [
      async (c) => {
        const list = await c.send('GET', '/sync/v1/devices', { token: c.a.ownerToken });
        return expectStatus('devices', list, 200) ?? (list.body.some((d: { id: string }) => [c.b.ownerDeviceId, c.b.spareDeviceId, c.b.viewerDeviceId].includes(d.id)) ? "A's device list shows B's devices" : null);
      },
    ],
  },
  'POST /sync/v1/devices/rotate': {
    crossEntity: [
      async (c) => {
        const rotated = await c.send('POST', '/sync/v1/devices/rotate', { token: c.a.spareToken });
        return expectStatus('rotate', rotated, 200) ?? (rotated.body.deviceId === c.a.spareDeviceId ? null : `rotate answered device ${rotated.body.deviceId}`);
      },
    ],
    viewerMayWrite: "a new token for the viewer's own device (its own credential; no data of the entity changes)",
  },
  'DELETE /sync/v1/devices/{deviceId}': {
    crossEntity: [
      async (c) => {
        const refused = expectStatus("revoke B's device", await c.send('DELETE', `/sync/v1/devices/${c.b.spareDeviceId}`, { token: c.a.ownerToken }), 404);
        return refused ?? expectStatus("B's device still works", await c.send('GET', '/sync/v1/devices', { token: c.b.spareToken }), 200);
      },
    ],
    viewer: [async (c) => expectStatus("viewer revokes the owner's spare device", await c.send('DELETE', `/sync/v1/devices/${c.a.spareDeviceId}`, { token: c.a.viewerToken }), 404)],
  },
  'POST /sync/v1/mail': {
    // B's signer is no address of A's: refused, and nothing is kept of it (the sweep's instance has no SMTP: 403 comes first).
    crossEntity: [
      async (c) =>
        expectStatus(
          "mail to B's signer",
          await c.send('POST', '/sync/v1/mail', { token: c.a.ownerToken, body: { id: crypto.randomUUID(), to: 'signer-beta@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>', ref: { kind: 'test' } } }),
          403,
        ),
    ],
    viewer: [async (c) => expectStatus('viewer mail', await c.send('POST', '/sync/v1/mail', { token: c.a.viewerToken, body: { id: crypto.randomUUID(), to: c.a.email, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>', ref: {} } }), 403)],
  },
  'POST /sync/v1/push': {
    // B's change ids and row ids are only names inside A's log: accepted as A's own (never "duplicate" of B's), and B never sees them.
    crossEntity: [
      async (c) => {
        const changes = [
          { id: c.b.changeIds[0], table: 'signature_requests', rowId: c.b.requestId, op: 'upsert', columns: { title: 'Hijacked by A' }, hlc: stamp(), schemaVersion: 1 },
          { id: crypto.randomUUID(), table: 'documents', rowId: c.b.documentId, op: 'upsert', columns: { name: 'Hijacked.pdf' }, hlc: stamp(), schemaVersion: 1 },
        ];
        const pushed = await c.send('POST', '/sync/v1/push', { token: c.a.ownerToken, body: { changes } });
        if (pushed.status !== 200) return `push: ${pushed.status} ${JSON.stringify(pushed.body)}`;
        const statuses = pushed.body.results.map((r: { status: string }) => r.status);
        return statuses.every((s: string) => s === 'accepted') ? null : `A's push with B's ids answered ${statuses.join(', ')}`;
      },
    ],
    viewer: [
      async (c) =>
        expectStatus(
          'viewer push',
          await c.send('POST', '/sync/v1/push', { token: c.a.viewerToken, body: { changes: [{ id: crypto.randomUUID(), table: 'folders', rowId: 'v', op: 'upsert', columns: { name: 'viewer' }, hlc: stamp(), schemaVersion: 1 }] } }),
          403,
        ),
    ],
  },
  'GET /sync/v1/pull': { crossEntity: [async (c) => expectStatus('pull', await c.send('GET', '/sync/v1/pull?cursor=0', { token: c.a.ownerToken }), 200)] },
  'GET /sync/v1/snapshot': { crossEntity: [async (c) => expectStatus('snapshot', await c.send('GET', '/sync/v1/snapshot', { token: c.a.ownerToken }), 200)] },
  'HEAD /sync/v1/blobs/{sha256}': { crossEntity: [async (c) => expectStatus("HEAD B's file", await c.send('HEAD', `/sync/v1/blobs/${c.b.blobSha}`, { token: c.a.ownerToken }), 404)] },
  'GET /sync/v1/blobs/{sha256}': { crossEntity: [async (c) => expectStatus("GET B's file", await c.send('GET', `/sync/v1/blobs/${c.b.blobSha}`, { token: c.a.ownerToken }), 404)] },
  'PUT /sync/v1/blobs/{sha256}': {
    // Uploading B's bytes stores A's own copy: "created" exactly as for a file no entity has (200 would tell B has it).
    crossEntity: [
      async (c) => {
        const bytes = Buffer.from(`B's second file ${crypto.randomUUID()}`);
        const sha = crypto.createHash('sha256').update(bytes).digest('hex');
        const stored = expectStatus('B stores a file', await c.send('PUT', `/sync/v1/blobs/${sha}`, { token: c.b.ownerToken, raw: bytes }), 201);
        return stored ?? expectStatus("A puts B's file's bytes", await c.send('PUT', `/sync/v1/blobs/${sha}`, { token: c.a.ownerToken, raw: bytes }), 201);
      },
    ],
    viewer: [
      async (c) => {
        const bytes = Buffer.from(`viewer ${crypto.randomUUID()}`);
        return expectStatus('viewer upload', await c.send('PUT', `/sync/v1/blobs/${crypto.createHash('sha256').update(bytes).digest('hex')}`, { token: c.a.viewerToken, raw: bytes }), 403);
      },
    ],
  },
  // A secret is stored under the caller's own entity, whatever id it names; it is given back only to the device a subscription of the caller's entity names.
  'PUT /sync/v1/webhook-secrets': {
    crossEntity: [async (c) => expectStatus("A's secret under B's id", await c.send('PUT', '/sync/v1/webhook-secrets', { token: c.a.ownerToken, body: { subscriptionId: c.b.requestId, version: 'v1', secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}` } }), 204)],
    viewer: [async (c) => expectStatus('viewer secret', await c.send('PUT', '/sync/v1/webhook-secrets', { token: c.a.viewerToken, body: { subscriptionId: crypto.randomUUID(), version: 'v1', secret: `whsec_${Buffer.alloc(24, 2).toString('base64')}` } }), 403)],
  },
  'GET /sync/v1/webhook-secrets/{subscriptionId}': { crossEntity: [async (c) => expectStatus("B's secret", await c.send('GET', `/sync/v1/webhook-secrets/${c.b.requestId}?version=v1`, { token: c.a.ownerToken }), 404)] },
  // The signing token is the credential of one signer of B's (as a link in an e-mail is): a device token neither widens nor narrows it.
  'GET /api/sign/{token}': { crossEntity: [sameAsAnonymous('GET', (c) => `/api/sign/${c.b.signingToken}`)] },
  'POST /api/sign/{token}': { crossEntity: [sameAsAnonymous('POST', (c) => `/api/sign/${c.b.signingToken}`, () => ({ action: 'decline', reason: '' }))] },
  'GET /api/sign/{token}/document': { crossEntity: [sameAsAnonymous('GET', (c) => `/api/sign/${c.b.signingToken}/document`)] },
  // The relay keeps no entity (nothing may tie a transfer to one): a device token must change nothing.
  'GET /api/relay/quote': { crossEntity: [sameAsAnonymous('GET', () => '/api/relay/quote')] },
  'POST /api/relay/transfer': { crossEntity: [sameAsAnonymous('POST', () => '/api/relay/transfer', () => ({}))] },
  'GET /api/relay/jobs/{id}': { crossEntity: [sameAsAnonymous('GET', () => `/api/relay/jobs/${crypto.randomUUID()}`)] },
};

/** What B's owner reads of B: its devices (without last-seen times, which B's own reads move), its log, its files. */
async function readB(url: string, b: HostedSeed) {
  const devices = await call(url, 'GET', '/sync/v1/devices', { token: b.ownerToken });
  const pulled = await call(url, 'GET', '/sync/v1/pull?cursor=0', { token: b.ownerToken });
  const blob = await call(url, 'GET', `/sync/v1/blobs/${b.blobSha}`, { token: b.ownerToken });
  const page = await call(url, 'GET', `/api/sign/${b.signingToken}`);
  return {
    devices: devices.body.map((d: Record<string, unknown>) => ({ ...d, lastSeenAt: null })),
    log: pulled.body.changes,
    blob: blob.body,
    page: { ...page.body, signer: { ...page.body.signer } },
  };
}

/** As client.ts's call(), but NDJSON (a snapshot) comes back as its text. */
async function request(base: string, method: string, p: string, opts: { token?: string; body?: unknown; raw?: Buffer }): Promise<Reply> {
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + p, { method, headers, body: opts.raw ? new Uint8Array(opts.raw) : opts.body !== undefined ? JSON.stringify(opts.body) : undefined });
  const text = method === 'HEAD' ? '' : await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json') && text;
  return { status: res.status, body: json ? JSON.parse(text) : text, headers: res.headers };
}

const MARKER = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[\w.+-]+@[\w-]+\.[\w.]+/gi;

export function hostedIsolationSweep(store: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted isolation sweep on ${store} (generated from /sync/v1/openapi.json)`, () => {
    let hosted: RunningHosted;
    let doc: Doc;
    let ctx: Ctx;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-sweep-'));
    const exchanges: { principal: string; request: string; response: string }[] = [];

    beforeAll(async () => {
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'silent' });
      doc = (await call<Doc>(hosted.url, 'GET', '/sync/v1/openapi.json')).body;
      const a = await seedHostedEntity(hosted.url, 'Alpha', { codes: 1 });
      const b = await seedHostedEntity(hosted.url, 'Beta', { codes: 2 });
      ctx = {
        url: hosted.url,
        a,
        b,
        async send(method, p, opts = {}) {
          const res = await request(hosted.url, method, p, opts);
          const principal = opts.token === a.ownerToken || opts.token === a.spareToken ? 'A' : opts.token === a.viewerToken ? 'viewer of A' : opts.token ? 'other' : 'anonymous';
          exchanges.push({ principal, request: `${method} ${p} ${JSON.stringify(opts.body ?? '')}${opts.raw ? opts.raw.toString('latin1') : ''}`, response: JSON.stringify(res.body) });
          return res;
        },
      };
    }, 240_000);
    afterAll(async () => {
      await hosted?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const operations = () => Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));

    it('knows how to exercise every operation of the document (a new route fails here until it has a probe)', () => {
      const ops = operations();
      expect(ops.filter((op) => !PROBES[op]), 'operations without a probe in test/hosted/isolation-sweep.ts').toEqual([]);
      expect(Object.keys(PROBES).filter((op) => !ops.includes(op)), 'probes of operations the document no longer has').toEqual([]);
      // Every device operation that writes is either refused to a viewer by a probe or allowed with a reason.
      const writes = ops.filter((op) => !/^(GET|HEAD) /.test(op) && doc.paths[op.split(' ')[1]][op.split(' ')[0].toLowerCase()].security?.length);
      expect(writes.filter((op) => !PROBES[op].viewer?.length && !PROBES[op].viewerMayWrite)).toEqual([]);
    });

    it("A's devices reach none of B's data through any operation, and B's data is unchanged", { timeout: 180_000 }, async () => {
      const before = await readB(hosted.url, ctx.b);
      const failures: string[] = [];
      for (const op of operations()) for (const check of PROBES[op].crossEntity) failures.push(...[await check(ctx)].filter((f): f is string => f !== null).map((f) => `${op}: ${f}`));
      expect(failures).toEqual([]);

      // What only B has (ids and e-mail addresses of B's rows, devices and signer), never in an answer to A unless A's request named it.
      const ofA = new Set(JSON.stringify(await readB(hosted.url, ctx.a)).match(MARKER) ?? []);
      const ofB = new Set((JSON.stringify(before).match(MARKER) ?? []).filter((m) => !ofA.has(m)));
      expect(ofB.size).toBeGreaterThan(10);
      // B's signing token is the one credential of B's that opens B's data by design (a signer's link): an answer to it is the signer's, not a leak.
      const fromA = exchanges.filter((x) => (x.principal === 'A' || x.principal === 'viewer of A') && !x.request.includes(ctx.b.signingToken));
      // An id A itself sent (a row or change id it pushed under B's name) is A's to see again.
      const namedByA = new Set(fromA.flatMap((x) => x.request.match(MARKER) ?? []));
      const leaks = fromA.flatMap((x) => {
        const shown = [...new Set((x.response.match(MARKER) ?? []).filter((m) => ofB.has(m) && !namedByA.has(m)))];
        return shown.length ? [`${x.request.slice(0, 160)} answered A with B's ${shown.join(', ')}`] : [];
      });
      expect(leaks).toEqual([]);

      const after = await readB(hosted.url, ctx.b);
      // B's owner joined with B's own code (after A's attempt): that device is new; nothing else of B changes.
      const added = after.devices.filter((d: { id: string }) => !before.devices.some((o: { id: string }) => o.id === d.id));
      expect(added.map((d: { name: string }) => d.name).sort()).toEqual(['B laptop']);
      expect({ ...after, devices: after.devices.filter((d: { id: string }) => !added.includes(d)) }).toEqual(before);
    });

    it("a viewer's device is refused every write, and A's data is unchanged", { timeout: 120_000 }, async () => {
      const before = await readB(hosted.url, ctx.a);
      const failures: string[] = [];
      for (const op of operations()) for (const check of PROBES[op].viewer ?? []) failures.push(...[await check(ctx)].filter((f): f is string => f !== null).map((f) => `${op}: ${f}`));
      expect(failures).toEqual([]);
      const after = await readB(hosted.url, ctx.a);
      expect(after).toEqual(before);
    });
  });
}
