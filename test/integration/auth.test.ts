import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, makeClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('signup, login, logout', () => {
  it('signs up a user who owns a new entity and gets a hardened session cookie', async () => {
    const res = await server.anon.post('/api/auth/signup', { email: 'Owner@Example.com ', password: 'a long password', name: 'Olive', entityName: 'Olive Co' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'owner@example.com', name: 'Olive' });
    expect(res.body.entity).toMatchObject({ name: 'Olive Co' });
    expect(res.body.user.passwordHash).toBeUndefined();
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/bureau_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);

    const me = await makeClient(server.url, { cookie: cookie.split(';')[0] }).get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('owner@example.com');
    expect(me.body.entities).toEqual([expect.objectContaining({ id: res.body.entity.id, role: 'owner', permissions: expect.arrayContaining(['SETTINGS.MANAGE']) })]);
  });

  it('refuses a second account with the same e-mail (409) and bad input (400 with details)', async () => {
    const dup = await server.anon.post('/api/auth/signup', { email: 'owner@example.com', password: 'another password', name: 'X', entityName: 'Y' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatch(/already exists/);
    const bad = await server.anon.post('/api/auth/signup', { email: 'not-an-email', password: 'short', name: '', entityName: 'Y' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTypeOf('string');
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'name', 'password']);
  });

  it('stores passwords with a memory-hard KDF, never in clear', () => {
    const row = server.ctx.sqlite.prepare('select password_hash from users where email = ?').get('owner@example.com') as { password_hash: string };
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain('a long password');
  });

  it('logs in with the right password only, and logout ends the session', async () => {
    const wrong = await server.anon.post('/api/auth/login', { email: 'owner@example.com', password: 'nope nope nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid e-mail or password' });
    const unknown = await server.anon.post('/api/auth/login', { email: 'ghost@example.com', password: 'nope nope nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);

    const ok = await server.anon.post('/api/auth/login', { email: 'OWNER@example.com', password: 'a long password' });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!.split(';')[0];
    const client = makeClient(server.url, { cookie, origin: server.url });
    expect((await client.get('/api/auth/me')).status).toBe(200);
    const out = await client.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/bureau_session=;/);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('throttles password guessing per e-mail with 429 and Retry-After', async () => {
    const c = await server.signup({ email: 'target@example.com' });
    for (let i = 0; i < 5; i++) {
      expect((await server.anon.post('/api/auth/login', { email: c.email, password: `guess number ${i}` })).status).toBe(401);
    }
    const blocked = await server.anon.post('/api/auth/login', { email: c.email, password: c.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.error).toMatch(/Too many/);
  });

  it('requires credentials for /api/auth/me', async () => {
    const res = await server.anon.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required' });
  });
});

describe('entities and members', () => {
  it('creates entities and lists them with roles', async () => {
    const c = await server.signup();
    const created = await c.post('/api/entities', { name: 'Side Project' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Side Project', role: 'owner' });
    const list = await c.get('/api/entities');
    expect(list.body.map((e: { name: string }) => e.name)).toEqual([expect.stringMatching(/^Entity/), 'Side Project']);
    expect((await c.post('/api/entities', { name: '' })).status).toBe(400);
  });

  it('invites a new person, who accepts and can sign in; roles limit what they can do', async () => {
    const owner = await server.signup();
    const add = await owner.post(`/api/entities/${owner.entityId}/members`, { email: 'newbie@example.com', role: 'viewer' });
    expect(add.status).toBe(201);
    expect(add.body.member).toMatchObject({ email: 'newbie@example.com', role: 'viewer', pending: true });
    expect(add.body.inviteToken).toBeTypeOf('string');
    expect((await owner.post(`/api/entities/${owner.entityId}/members`, { email: 'newbie@example.com', role: 'viewer' })).status).toBe(409);

    const accepted = await server.anon.post('/api/auth/accept-invite', { token: add.body.inviteToken, password: 'viewer password 1', name: 'Newbie' });
    expect(accepted.status).toBe(200);
    expect((await server.anon.post('/api/auth/accept-invite', { token: add.body.inviteToken, password: 'viewer password 2' })).status).toBe(400);
    const login = await server.anon.post('/api/auth/login', { email: 'newbie@example.com', password: 'viewer password 1' });
    expect(login.status).toBe(200);
    const viewer = makeClient(server.url, { cookie: login.headers.get('set-cookie')!.split(';')[0], origin: server.url, 'x-entity-id': owner.entityId });

    expect((await viewer.get(`/api/entities/${owner.entityId}/members`)).status).toBe(200);
    const denied = await viewer.post(`/api/entities/${owner.entityId}/members`, { email: 'x@example.com', role: 'viewer' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/MEMBERS.MANAGE/);
    expect((await viewer.post('/api/settings/api-keys', { name: 'k', scopes: ['read:documents'] })).status).toBe(403);
  });

  it('adds an existing user directly, changes roles, keeps at least one owner', async () => {
    const owner = await server.signup();
    const other = await server.signup();
    const add = await owner.post(`/api/entities/${owner.entityId}/members`, { email: other.email, role: 'admin' });
    expect(add.status).toBe(201);
    expect(add.body.inviteToken).toBeUndefined();
    expect(add.body.member.pending).toBe(false);

    const asAdmin = makeClient(server.url, { cookie: other.cookie, origin: server.url });
    // An admin cannot appoint or demote owners.
    expect((await asAdmin.patch(`/api/entities/${owner.entityId}/members/${other.user.id}`, { role: 'owner' })).status).toBe(403);
    expect((await asAdmin.patch(`/api/entities/${owner.entityId}/members/${owner.user.id}`, { role: 'member' })).status).toBe(403);
    // The only owner cannot leave ownership.
    const last = await owner.patch(`/api/entities/${owner.entityId}/members/${owner.user.id}`, { role: 'admin' });
    expect(last.status).toBe(409);
    expect((await owner.delete(`/api/entities/${owner.entityId}/members/${owner.user.id}`)).status).toBe(409);
    const demote = await owner.patch(`/api/entities/${owner.entityId}/members/${other.user.id}`, { role: 'member' });
    expect(demote.status).toBe(200);
    expect(demote.body.role).toBe('member');
    expect((await owner.patch(`/api/entities/${owner.entityId}/members/${other.user.id}`, { role: 'emperor' })).status).toBe(400);
    expect((await owner.patch(`/api/entities/${owner.entityId}/members/${crypto.randomUUID()}`, { role: 'member' })).status).toBe(404);
    const removed = await owner.delete(`/api/entities/${owner.entityId}/members/${other.user.id}`);
    expect(removed.body).toEqual({ removed: true });
    expect((await asAdmin.get(`/api/entities/${owner.entityId}/members`)).status).toBe(403);
  });

  it('keeps entities apart: a non-member gets 403 on another entity', async () => {
    const a = await server.signup();
    const b = await server.signup();
    const res = await makeClient(server.url, { cookie: b.cookie }).get(`/api/entities/${a.entityId}/members`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Not a member of this entity' });
    // Naming two different entities at once is refused rather than guessed.
    const both = await b.get(`/api/entities/${a.entityId}/members`);
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/different values/);
  });

  it('publishes the role → permission table', async () => {
    const res = await server.anon.get('/api/auth/roles');
    expect(res.body.viewer).toContain('DOCUMENTS.VIEW');
    expect(res.body.viewer).not.toContain('DOCUMENTS.EDIT');
    expect(res.body.owner).toContain('SETTINGS.MANAGE');
  });
});
