// Withdrawn credentials and rights take effect on the very next request, however fast the
// requests before them came (the credential checks are prepared statements, not a cache: a
// key or session used a moment ago is looked up again, from any connection's writes).
import Database from 'better-sqlite3';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Many quick requests first, so anything that could remember the credential has seen it. */
async function warm(get: () => Promise<{ status: number }>) {
  const statuses = await Promise.all(Array.from({ length: 20 }, get));
  expect(statuses.map((r) => r.status)).toEqual(Array(20).fill(200));
}

describe('withdrawn access, next request', () => {
  it('a revoked API key is refused on the very next request (401)', async () => {
    const owner = await server.signup();
    const key = await server.apiKeyClient(owner, ['read:helpdesk']);
    const list = `/api/helpdesk/tickets?entityId=${owner.entityId}`;
    await warm(() => key.get(list));
    expect((await owner.delete(`/api/settings/api-keys/${key.keyId}`)).status).toBe(200);
    const [a, b] = await Promise.all([key.get(list), key.get('/api/health')]);
    expect(a.status).toBe(401);
    expect(a.body).toEqual({ error: 'API key has been revoked' });
    expect(b.status).toBe(401);
  });

  it('a key revoked or deleted by another connection to the database is refused at once', async () => {
    const owner = await server.signup();
    const revoked = await server.apiKeyClient(owner, ['read:helpdesk']);
    const deleted = await server.apiKeyClient(owner, ['read:helpdesk']);
    const list = `/api/helpdesk/tickets?entityId=${owner.entityId}`;
    await warm(() => revoked.get(list));
    await warm(() => deleted.get(list));
    const other = new Database(path.join(server.dataDir, 'bureau.db'));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare('update api_keys set revoked_at = ? where id = ?').run(new Date().toISOString(), revoked.keyId);
      other.prepare('delete from api_keys where id = ?').run(deleted.keyId);
    } finally {
      other.close();
    }
    expect((await revoked.get(list)).status).toBe(401);
    const gone = await deleted.get(list);
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ error: 'Invalid API key' });
  });

  it('a key loses nothing it had and gains nothing: scope and entity still checked per request', async () => {
    const owner = await server.signup();
    const other = await server.signup();
    const key = await server.apiKeyClient(owner, ['read:helpdesk']);
    await warm(() => key.get(`/api/helpdesk/tickets?entityId=${owner.entityId}`));
    expect((await key.get(`/api/helpdesk/tickets?entityId=${other.entityId}`)).status).toBe(403);
    expect((await key.post('/api/helpdesk/tickets', { entityId: owner.entityId, subject: 'no' })).status).toBe(403);
  });

  it("a member's role change and removal apply to the very next request", async () => {
    const owner = await server.signup();
    const colleague = await server.signup();
    expect((await owner.post(`/api/entities/${owner.entityId}/members`, { email: colleague.email, role: 'member' })).status).toBe(201);
    const asColleague = makeClient(server.url, { cookie: colleague.cookie, origin: server.url, 'x-entity-id': owner.entityId });
    await warm(() => asColleague.get('/api/helpdesk/tickets'));
    expect((await asColleague.post('/api/helpdesk/tickets', { subject: 'allowed' })).status).toBe(201);

    expect((await owner.patch(`/api/entities/${owner.entityId}/members/${colleague.user.id}`, { role: 'viewer' })).status).toBe(200);
    const denied = await asColleague.post('/api/helpdesk/tickets', { subject: 'not any more' });
    expect(denied.status).toBe(403);
    expect((await asColleague.get('/api/helpdesk/tickets')).status).toBe(200);

    expect((await owner.delete(`/api/entities/${owner.entityId}/members/${colleague.user.id}`)).status).toBe(200);
    const removed = await asColleague.get('/api/helpdesk/tickets');
    expect(removed.status).toBe(403);
    expect(removed.body).toEqual({ error: 'Not a member of this entity' });
  });

  it('a signed-out session is refused on the very next request', async () => {
    const owner = await server.signup();
    await warm(() => owner.get('/api/helpdesk/tickets'));
    expect((await owner.post('/api/auth/logout')).status).toBe(200);
    const after = await owner.get('/api/helpdesk/tickets');
    expect(after.status).toBe(401);
    expect((await owner.get('/api/auth/me')).status).toBe(401);
  });
});

describe('responses as Express sends them', () => {
  it('JSON with charset, length and a weak ETag; 304 for a fresh conditional GET; no body for HEAD', async () => {
    const owner = await server.signup();
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    // node:http, not fetch: fetch adds `cache-control: no-cache` to a conditional request.
    const again = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(`${server.url}/api/health`, { headers: { 'if-none-match': etag! } }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        })
        .on('error', reject);
    });
    expect(again).toEqual({ status: 304, body: '' });

    const head = await fetch(`${server.url}/api/helpdesk/tickets`, { method: 'HEAD', headers: { cookie: owner.cookie, 'x-entity-id': owner.entityId } });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total-count')).toBe('0');
    expect(await head.text()).toBe('');
  });
});
