import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, makeClient, type TestServer } from '../helpers/server.js';

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.close());

describe('API keys', () => {
  it('shows the key once, stores only its hash, and introspects through /api/auth/me', async () => {
    const owner = await server.signup();
    const created = await owner.post('/api/settings/api-keys', { name: 'CI', scopes: ['read:helpdesk', 'write:helpdesk'] });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 11));
    const list = await owner.get('/api/settings/api-keys');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('key');
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    const row = server.ctx.sqlite.prepare('select * from api_keys where id = ?').get(created.body.id) as Record<string, unknown>;
    expect(Object.values(row).join('|')).not.toContain(created.body.key);

    const key = makeClient(server.url, { authorization: `Bearer ${created.body.key}` });
    const me = await key.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      apiKey: { id: created.body.id, name: 'CI', prefix: created.body.prefix, scopes: ['read:helpdesk', 'write:helpdesk'] },
      entity: expect.objectContaining({ id: owner.entityId }),
    });
    const used = await owner.get('/api/settings/api-keys');
    expect(used.body[0].lastUsedAt).toBeTypeOf('string');
  });

  it('revocation takes effect at once (401)', async () => {
    const owner = await server.signup();
    const key = await server.apiKeyClient(owner, ['read:documents']);
    expect((await key.get('/api/auth/me')).status).toBe(200);
    const revoked = await owner.delete(`/api/settings/api-keys/${key.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toBeTypeOf('string');
    const after = await key.get('/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'API key has been revoked' });
  });

  it('expired keys get 401; expiry must be in the future', async () => {
    const owner = await server.signup();
    const past = await owner.post('/api/settings/api-keys', { name: 'old', scopes: ['read:documents'], expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    const soon = await owner.post('/api/settings/api-keys', { name: 'soon', scopes: ['read:documents'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(soon.status).toBe(201);
    const key = makeClient(server.url, { authorization: `Bearer ${soon.body.key}` });
    expect((await key.get('/api/auth/me')).status).toBe(200);
    clock.offsetMs = 2 * 3_600_000;
    try {
      const res = await key.get('/api/auth/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'API key has expired' });
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('rejects unknown keys, malformed headers, unknown scopes and empty scope lists', async () => {
    expect((await makeClient(server.url, { authorization: 'Bearer ak_doesnotexist' }).get('/api/auth/me')).status).toBe(401);
    expect((await makeClient(server.url, { authorization: 'Basic dXNlcjpwYXNz' }).get('/api/auth/me')).status).toBe(401);
    const owner = await server.signup();
    const bad = await owner.post('/api/settings/api-keys', { name: 'x', scopes: ['admin:everything'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toMatch(/^scopes/);
    expect((await owner.post('/api/settings/api-keys', { name: 'x', scopes: [] })).status).toBe(400);
    expect((await owner.delete(`/api/settings/api-keys/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('cannot be managed with an API key (session only), and another entity’s key id is 404', async () => {
    const a = await server.signup();
    const b = await server.signup();
    const keyA = await server.apiKeyClient(a, ['read:documents', 'write:documents']);
    const res = await keyA.get(`/api/settings/api-keys?entityId=${a.entityId}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/session/);
    expect((await b.delete(`/api/settings/api-keys/${keyA.keyId}`)).status).toBe(404);
    expect((await keyA.get('/api/auth/me')).status).toBe(200);
  });
});

describe('entity scope rules', () => {
  it('needs entityId (400), a UUID (400), membership (403) and the permission (403)', async () => {
    const a = await server.signup();
    const noEntity = makeClient(server.url, { cookie: a.cookie, origin: server.url });
    const missing = await noEntity.get('/api/settings/api-keys');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'entityId required' });
    const notUuid = await noEntity.get('/api/settings/api-keys?entityId=abc');
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.error).toMatch(/UUID/);
    const stranger = await noEntity.get(`/api/settings/api-keys?entityId=${crypto.randomUUID()}`);
    expect(stranger.status).toBe(403);
    // QBH: query, JSON body or header all name the entity.
    expect((await noEntity.get(`/api/settings/api-keys?entityId=${a.entityId}`)).status).toBe(200);
    expect((await noEntity.get('/api/settings/api-keys', { headers: { 'x-entity-id': a.entityId } })).status).toBe(200);
    expect((await noEntity.post('/api/settings/api-keys', { entityId: a.entityId, name: 'k', scopes: ['read:ledger'] })).status).toBe(201);
  });

  it('an API key pinned to one entity is refused for another (403), and needs its scope (403)', async () => {
    const a = await server.signup();
    const b = await server.signup();
    const keyA = await server.apiKeyClient(a, ['read:documents']);
    const members = await keyA.get(`/api/entities/${b.entityId}/members`);
    expect(members.status).toBe(403);
    expect(members.body.error).toMatch(/session|entity/);
    const wrongEntity = await keyA.get(`/api/settings/api-keys?entityId=${b.entityId}`);
    expect(wrongEntity.status).toBe(403);
  });
});

describe('entityId sources per route (Q / QB / QBH)', () => {
  it('Q routes read entityId from the query only (API key); sessions may also use x-entity-id', async () => {
    const a = await server.signup();
    const key = await server.apiKeyClient(a, ['read:documents', 'write:documents', 'read:helpdesk']);
    const headerOnly = await key.get('/api/documents/folders', { headers: { 'x-entity-id': a.entityId } });
    expect(headerOnly.status).toBe(400);
    expect(headerOnly.body).toEqual({ error: 'entityId required' });
    expect((await key.get(`/api/documents/folders?entityId=${a.entityId}`)).status).toBe(200);
    const bodyOnly = await key.post('/api/documents/signature-requests', { entityId: a.entityId, documentId: crypto.randomUUID(), title: 'x' });
    expect(bodyOnly.status).toBe(400);
    expect(bodyOnly.body).toEqual({ error: 'entityId required' });
    // Section 5.3: a browser session names its entity with x-entity-id.
    expect((await a.get('/api/documents/folders')).status).toBe(200);
  });

  it('QB routes also take the JSON body, but not the header (API key)', async () => {
    const a = await server.signup();
    const key = await server.apiKeyClient(a, ['write:documents']);
    const viaBody = await key.post('/api/documents/folders', { entityId: a.entityId, name: 'Contracts' });
    expect(viaBody.status).toBe(201);
    const viaHeader = await key.post('/api/documents/folders', { name: 'Contracts 2' }, { headers: { 'x-entity-id': a.entityId } });
    expect(viaHeader.status).toBe(400);
    expect(viaHeader.body).toEqual({ error: 'entityId required' });
  });

  it('QBH routes take query, body or header', async () => {
    const a = await server.signup();
    const key = await server.apiKeyClient(a, ['read:helpdesk', 'write:helpdesk']);
    expect((await key.get('/api/helpdesk/tickets', { headers: { 'x-entity-id': a.entityId } })).status).toBe(200);
    expect((await key.get(`/api/helpdesk/tickets?entityId=${a.entityId}`)).status).toBe(200);
    expect((await key.post('/api/helpdesk/tickets', { entityId: a.entityId, subject: 'Printer on fire' })).status).toBe(201);
  });

  it('an API key needs the route’s scope (403), whatever else it has', async () => {
    const a = await server.signup();
    const reader = await server.apiKeyClient(a, ['read:documents']);
    const write = await reader.post(`/api/documents/folders?entityId=${a.entityId}`, { name: 'Nope' });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatch(/write:documents/);
    const other = await reader.get(`/api/helpdesk/tickets?entityId=${a.entityId}`);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/read:helpdesk/);
    const b = await server.signup();
    const foreign = await reader.get(`/api/documents/folders?entityId=${b.entityId}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 'API key is not valid for this entity' });
  });

  it('a session member without the permission gets 403', async () => {
    const owner = await server.signup();
    const viewer = await server.signup();
    await owner.post(`/api/entities/${owner.entityId}/members`, { email: viewer.email, role: 'viewer' });
    const asViewer = makeClient(server.url, { cookie: viewer.cookie, origin: server.url, 'x-entity-id': owner.entityId });
    expect((await asViewer.get('/api/documents/folders')).status).toBe(200);
    const denied = await asViewer.post('/api/documents/folders', { name: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/DOCUMENTS.EDIT/);
  });
});

describe('localhost safety', () => {
  it('rejects a Host that is not a loopback name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/health`, { headers: { host: 'evil.example.com' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      const ok = await new Promise<number>((resolve) => {
        const req = request(`${server.url}/api/health`, { headers: { host } }, (res) => (res.resume(), resolve(res.statusCode!)));
        req.end();
      });
      expect(ok).toBe(200);
    }
  });

  it('refuses cross-origin requests and cookie writes without Origin; sends no CORS headers', async () => {
    const a = await server.signup();
    const evil = await a.post('/api/entities', { name: 'x' }, { headers: { origin: 'http://evil.example.com' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const noOrigin = await makeClient(server.url, { cookie: a.cookie }).post('/api/entities', { name: 'x' });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error).toMatch(/Origin/);
    // Non-browser clients using API keys send no Origin and are fine.
    const key = await server.apiKeyClient(a, ['read:documents']);
    expect((await key.get('/api/auth/me')).status).toBe(200);
  });
});

describe('errors', () => {
  it('answers unexpected failures with a bare 500 and no internals', async () => {
    const owner = await server.signup();
    const s2 = await startTestServer();
    try {
      const o2 = await s2.signup();
      s2.ctx.sqlite.exec('DROP TABLE api_keys');
      const res = await o2.get('/api/settings/api-keys');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
    } finally {
      await s2.close();
    }
    expect((await owner.get('/api/settings/api-keys')).status).toBe(200);
  });
});
