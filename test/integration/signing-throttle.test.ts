import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { draftRequest, signingToken } from './documents-helpers.js';

const clock = { offsetMs: 0, now: () => new Date(Date.UTC(2026, 10, 23, 9, 0, 0) + clock.offsetMs) };
let server: TestServer;
let owner: SessionClient;
beforeAll(async () => {
  server = await startTestServer({ clock });
  owner = await server.signup();
});
afterAll(() => server.close());

const unknown = (i: number) => `unknown-link-${String(i).padStart(40, '0')}`;

describe('signing links: unknown links are throttled per client IP', () => {
  it('answers 20 unknown links with 404, then every signing-link request from that IP with 429 until the window passes', async () => {
    const { requestId, signers } = await draftRequest(owner);
    expect((await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
    const token = await signingToken(owner, requestId, signers[0].id);
    expect((await server.anon.get(`/api/sign/${token}`)).status).toBe(200);

    // Malformed tokens are refused by validation and are not counted as probes.
    for (let i = 0; i < 25; i++) expect((await server.anon.get(`/api/sign/bad!${i}`)).status).toBe(400);
    // Known links are not counted either.
    for (let i = 0; i < 25; i++) expect((await server.anon.get(`/api/sign/${token}`)).status).toBe(200);

    // Unknown links count on every signing route.
    const misses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const path = `/api/sign/${unknown(i)}`;
      const res = i % 3 === 0 ? await server.anon.get(path) : i % 3 === 1 ? await server.anon.post(path, { action: 'decline', reason: 'x' }) : await server.anon.get(`${path}/document`);
      misses.push(res.status);
    }
    expect(misses).toEqual(Array(20).fill(404));

    const blocked = await server.anon.get(`/api/sign/${unknown(20)}`);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/Too many unknown signing links/);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The block covers valid links from that IP too (otherwise a hit would tell the prober it won),
    // and it does not act on them: the signer's view is not recorded, nothing is signed.
    expect((await server.anon.get(`/api/sign/${token}`)).status).toBe(429);
    expect((await server.anon.post(`/api/sign/${token}`, { action: 'decline', reason: 'probe' })).status).toBe(429);
    expect((await fetch(`${server.url}/api/sign/${token}/document`)).status).toBe(429);
    const detail = await owner.get(`/api/documents/signature-requests/${requestId}`);
    expect(detail.body.status).toBe('sent');
    expect(detail.body.signers[0].status).toBe('pending');
    // Everything else still answers.
    expect((await server.anon.get('/api/health')).status).toBe(200);
    expect((await owner.get(`/api/documents/signature-requests/${requestId}`)).status).toBe(200);

    // The window slides: once the oldest misses age out the signer gets through again.
    clock.offsetMs = 15 * 60_000 + 1_000;
    const view = await server.anon.get(`/api/sign/${token}`);
    expect(view.status).toBe(200);
    expect(view.body.canSign).toBe(true);
    expect((await server.anon.get(`/api/sign/${unknown(21)}`)).status).toBe(404);
  });

  it('documents the 429 in the OpenAPI document', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    for (const [path, method] of [['/api/sign/{token}', 'get'], ['/api/sign/{token}', 'post'], ['/api/sign/{token}/document', 'get']]) {
      expect(doc.paths[path][method].responses['429']).toBeDefined();
    }
  });
});
