// The direct dispatcher (server/http/direct.ts) answers the hottest routes without Express. It
// must answer exactly as the Express pipeline does: the same request is sent to a server that
// runs ONLY the direct dispatcher (anything it does not take is answered 599) and to one that
// runs ONLY the Express app, both on the same database, and status, headers and body must match.
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { allRoutes, createApp } from '../../server/app.js';
import { createDirectDispatch } from '../../server/http/direct.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: TestServer;
let owner: SessionClient;
let key: string;
let readOnlyKey: string;
let revokedKey: string;
let directUrl: URL;
let expressUrl: URL;
const extra: http.Server[] = [];

function listen(listener: http.RequestListener): Promise<URL> {
  const s = http.createServer(listener);
  extra.push(s);
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}`))));
}

/** One raw request (every header as given, including Host), the answer without Date/Connection. */
function send(base: URL, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers: { host: '127.0.0.1:4000', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = res.headers;
        resolve({ status: res.statusCode!, headers: rest, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The same request through the direct dispatcher and through Express: both answers. */
async function both(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) {
  const direct = await send(directUrl, method, path, headers, body);
  const viaExpress = await send(expressUrl, method, path, headers, body);
  return { direct, viaExpress };
}

async function expectSame(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Answer> {
  const { direct, viaExpress } = await both(method, path, headers, body);
  expect(direct.status, 'the direct dispatcher took the request').not.toBe(599);
  expect(direct).toEqual(viaExpress);
  return direct;
}

const json = (v: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(v) });
const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
const event = (i: string, extra: object = {}) => ({ type: 'invoice_created', payload: { invoiceNumber: `D-${i}`, currency: 'USD', netAmount: '10.00', taxAmount: '1.00' }, idempotencyKey: `direct-${i}`, ...extra });

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  key = (await server.apiKeyClient(owner, ['read:helpdesk', 'read:ledger', 'write:ledger'])).key;
  readOnlyKey = (await server.apiKeyClient(owner, ['read:ledger'])).key;
  const revoked = await server.apiKeyClient(owner, ['read:helpdesk']);
  revokedKey = revoked.key;
  expect((await owner.delete(`/api/settings/api-keys/${revoked.keyId}`)).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await owner.post('/api/helpdesk/tickets', { subject: `Ticket ${i}`, description: 'd', contactEmail: `c${i}@example.com` })).status).toBe(201);
  const jsonBody = express.json({ limit: server.ctx.config.jsonLimit });
  const app = createApp(server.ctx, jsonBody);
  const direct = createDirectDispatch(server.ctx, app, allRoutes(), jsonBody);
  directUrl = await listen((req, res) => {
    if (!direct(req, res)) {
      res.statusCode = 599;
      res.end();
    }
  });
  expressUrl = await listen(app);
});

afterAll(async () => {
  for (const s of extra) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await server?.close();
});

describe('direct dispatch answers as Express does', () => {
  it('leaves every other request to Express', async () => {
    for (const [method, path] of [
      ['GET', '/api/ledger/events'],
      ['HEAD', '/api/health'],
      ['GET', '/api/health/'],
      ['GET', '/API/HEALTH'],
      ['PUT', '/api/ledger/events'],
      ['GET', '/'],
    ]) {
      expect((await send(directUrl, method, path, {})).status, `${method} ${path}`).toBe(599);
    }
  });

  it('GET /api/health: public, with a key, bad keys, guards, conditional requests', async () => {
    const plain = await expectSame('GET', '/api/health');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await expectSame('GET', '/api/health', bearer(key))).status).toBe(200);
    expect((await expectSame('GET', '/api/health?x[y]=1&z=2', bearer(key))).status).toBe(200);
    expect((await expectSame('GET', '/api/health', bearer('ak_unknown'))).status).toBe(401);
    expect((await expectSame('GET', '/api/health', bearer(revokedKey))).status).toBe(401);
    expect((await expectSame('GET', '/api/health', { authorization: 'Basic abc' })).status).toBe(401);
    expect((await expectSame('GET', '/api/health', { host: 'evil.example' })).status).toBe(403);
    expect((await expectSame('GET', '/api/health', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await expectSame('GET', '/api/health', { origin: 'http://127.0.0.1:4000' })).status).toBe(200);
    expect((await expectSame('GET', '/api/health', { 'if-none-match': plain.headers.etag as string })).status).toBe(304);
    expect((await expectSame('GET', '/api/health', { cookie: 'bureau_session=stale; other=%E0%A4%A' })).status).toBe(200);
  });

  it('GET /api/helpdesk/tickets: scopes, entities, sessions, validation, paging', async () => {
    const q = `/api/helpdesk/tickets?entityId=${owner.entityId}`;
    const list = await expectSame('GET', q, bearer(key));
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toHaveLength(3);
    expect(list.headers['x-total-count']).toBe('3');
    const page = await expectSame('GET', `${q}&limit=2`, bearer(key));
    expect(page.headers['x-next-cursor']).toBeTruthy();
    expect((await expectSame('GET', `${q}&limit=0&status=nope`, bearer(key))).status).toBe(400);
    expect((await expectSame('GET', `${q}&limit=2&limit=3`, bearer(key))).status).toBe(400);
    expect((await expectSame('GET', q, bearer(readOnlyKey))).status).toBe(403);
    expect((await expectSame('GET', '/api/helpdesk/tickets', bearer(key))).status).toBe(400);
    expect((await expectSame('GET', '/api/helpdesk/tickets?entityId=3f0c8b1e-0000-4000-8000-000000000000', bearer(key))).status).toBe(403);
    expect((await expectSame('GET', '/api/helpdesk/tickets?entityId=not-a-uuid', bearer(key))).status).toBe(400);
    expect((await expectSame('GET', q)).status).toBe(401);
    expect((await expectSame('GET', '/api/helpdesk/tickets', { cookie: owner.cookie, 'x-entity-id': owner.entityId })).status).toBe(200);
    const stranger = await server.signup();
    expect((await expectSame('GET', '/api/helpdesk/tickets', { cookie: stranger.cookie, 'x-entity-id': owner.entityId })).status).toBe(403);
    expect((await expectSame('GET', q, { ...bearer(key), 'x-entity-id': stranger.entityId })).status).toBe(400);
    expect((await expectSame('GET', q, { ...bearer(key), 'if-none-match': list.headers.etag as string })).status).toBe(304);
  });

  it('POST /api/ledger/events: replays, conflicts and every kind of bad body', async () => {
    const body = json({ entityId: owner.entityId, ...event('1') });
    const first = await send(expressUrl, 'POST', '/api/ledger/events', { ...bearer(key), ...body.headers }, body.body);
    expect(first.status).toBe(201);
    const replay = await expectSame('POST', '/api/ledger/events', { ...bearer(key), ...body.headers }, body.body);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(replay.body)).toEqual(JSON.parse(first.body));
    const conflict = json({ entityId: owner.entityId, ...event('1', { payload: { invoiceNumber: 'other', currency: 'USD', netAmount: '1.00', taxAmount: '0.00' } }) });
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(key), ...conflict.headers }, conflict.body)).status).toBe(409);
    const unknown = json({ entityId: owner.entityId, type: 'no_such_type', payload: {} });
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(key), ...unknown.headers }, unknown.body)).status).toBe(400);
    const invalid = json({ entityId: owner.entityId, type: 5 });
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(key), ...invalid.headers }, invalid.body)).status).toBe(400);
    const ct = { ...bearer(key), 'content-type': 'application/json' };
    expect((await expectSame('POST', '/api/ledger/events', ct, '{"entityId": ')).status).toBe(400);
    expect((await expectSame('POST', '/api/ledger/events', ct, '"just a string"')).status).toBe(400);
    expect((await expectSame('POST', '/api/ledger/events', ct, JSON.stringify({ entityId: owner.entityId, pad: 'x'.repeat(1_100_000) }))).status).toBe(413);
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(key), 'content-type': 'application/json; charset=latin1' }, body.body)).status).toBe(415);
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(key), 'content-type': 'text/plain' }, body.body)).status).toBe(400);
    expect((await expectSame('POST', '/api/ledger/events', { ...ct, 'content-encoding': 'gzip' }, Buffer.from('not gzip'))).status).toBe(400);
    expect((await expectSame('POST', '/api/ledger/events', { ...ct, 'content-encoding': 'gzip' }, zlib.gzipSync(body.body))).status).toBe(200);
    expect((await expectSame('POST', '/api/ledger/events', { ...ct, 'content-encoding': 'snappy' }, body.body)).status).toBe(415);
    expect((await expectSame('POST', '/api/ledger/events', { ...bearer(readOnlyKey), ...body.headers }, body.body)).status).toBe(403);
    expect((await expectSame('POST', '/api/ledger/events', body.headers, body.body)).status).toBe(401);
    // A session's write needs an Origin (CSRF), and it must be ours.
    expect((await expectSame('POST', '/api/ledger/events', { cookie: owner.cookie, ...body.headers }, body.body)).status).toBe(403);
    expect((await expectSame('POST', '/api/ledger/events', { cookie: owner.cookie, origin: 'http://127.0.0.1:4000', ...body.headers }, body.body)).status).toBe(200);
  });

  it('POST /api/ledger/events: a new event gets the same answer apart from its own ids and times', async () => {
    const a = json({ entityId: owner.entityId, ...event('new-a') });
    const b = json({ entityId: owner.entityId, ...event('new-b') });
    const direct = await send(directUrl, 'POST', '/api/ledger/events', { ...bearer(key), ...a.headers }, a.body);
    const viaExpress = await send(expressUrl, 'POST', '/api/ledger/events', { ...bearer(key), ...b.headers }, b.body);
    expect(direct.status).toBe(201);
    expect(viaExpress.status).toBe(201);
    expect(Object.keys(direct.headers).sort()).toEqual(Object.keys(viaExpress.headers).sort());
    const shape = (s: string) => JSON.stringify(JSON.parse(s), (k, v) => (typeof v === 'string' && k !== 'postingStatus' && k !== 'type' ? typeof v : v));
    expect(shape(direct.body)).toBe(shape(viaExpress.body));
  });

  it('POST /api/ledger/events/batch: results per event, limits', async () => {
    const events = [event('1'), event('b2'), { type: 'nope' }, event('1', { payload: { invoiceNumber: 'x', currency: 'USD', netAmount: '2.00', taxAmount: '0.00' } })];
    await send(expressUrl, 'POST', '/api/ledger/events/batch', { ...bearer(key), 'content-type': 'application/json' }, JSON.stringify({ entityId: owner.entityId, events }));
    const batch = json({ entityId: owner.entityId, events });
    const answer = await expectSame('POST', '/api/ledger/events/batch', { ...bearer(key), ...batch.headers }, batch.body);
    expect(JSON.parse(answer.body).results.map((r: { status: number }) => r.status)).toEqual([200, 200, 400, 409]);
    const tooMany = json({ entityId: owner.entityId, events: Array.from({ length: 1001 }, (_, i) => event(`m${i}`)) });
    expect((await expectSame('POST', '/api/ledger/events/batch', { ...bearer(key), ...tooMany.headers }, tooMany.body)).status).toBe(400);
  });
});
