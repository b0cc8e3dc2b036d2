// One person, one password, on two device servers and a hosted instance: a password changed on one
// device works for signing in on the other (which then keeps a hash of it); the change goes through
// the hosted instance or not at all; devices are renamed from either device.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';

let hosted: RunningHosted;
let desktop: TestServer;
let laptop: TestServer;
let owner: SessionClient;
let onLaptop: Client;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-people-'));

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
  desktop = await startTestServer();
  laptop = await startTestServer();
  owner = await desktop.signup({ entityName: 'Acme Ltd', password: 'dana first password' });
  expect((await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: 'dana first password' })).status).toBe(201);
  const code = await owner.post('/api/sync/devices/code', {});
  const joined = await laptop.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: owner.email, password: 'dana first password' });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  onLaptop = makeClient(laptop.url, { cookie: (joined.headers.get('set-cookie') ?? '').split(';')[0], origin: laptop.url, 'x-entity-id': owner.entityId });
}, 120_000);

afterAll(async () => {
  await desktop?.close();
  await laptop?.close();
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

it('a password changed on the desktop signs in on the laptop, which keeps it; the old one stops working there', async () => {
  const wrong = await owner.post('/api/auth/password', { currentPassword: 'not my password', newPassword: 'dana second password' });
  expect(wrong.status).toBe(400);
  expect(wrong.body.error).toMatch(/current password/);
  const changed = await owner.post('/api/auth/password', { currentPassword: 'dana first password', newPassword: 'dana second password' });
  expect(changed.status, JSON.stringify(changed.body)).toBe(204);
  expect((await desktop.anon.post('/api/auth/login', { email: owner.email, password: 'dana second password' })).status).toBe(200);
  expect((await desktop.anon.post('/api/auth/login', { email: owner.email, password: 'dana first password' })).status).toBe(401);

  // The laptop's hash is the old one: the new password is asked of the hosted account, then kept.
  const hashBefore = laptop.ctx.sqlite.prepare('select password_hash as h from users where email = ?').get(owner.email) as { h: string };
  expect((await laptop.anon.post('/api/auth/login', { email: owner.email, password: 'dana second password' })).status).toBe(200);
  const hashAfter = laptop.ctx.sqlite.prepare('select password_hash as h from users where email = ?').get(owner.email) as { h: string };
  expect(hashAfter.h).not.toBe(hashBefore.h);
  expect((await laptop.anon.post('/api/auth/login', { email: owner.email, password: 'dana first password' })).status).toBe(401);
  // A password that is nobody's stays refused (and counts against the sign-in throttle as before).
  expect((await laptop.anon.post('/api/auth/login', { email: owner.email, password: 'a guess of someone else' })).status).toBe(401);
});

it('with the hosted instance out of reach, a password change changes nothing anywhere', async () => {
  const url = hosted.url;
  desktop.ctx.sqlite.prepare("update sync_links set hosted_url = 'http://127.0.0.1:9'").run();
  try {
    const res = await owner.post('/api/auth/password', { currentPassword: 'dana second password', newPassword: 'dana third password' });
    expect(res.status).toBe(502);
    expect((await desktop.anon.post('/api/auth/login', { email: owner.email, password: 'dana second password' })).status).toBe(200);
  } finally {
    desktop.ctx.sqlite.prepare('update sync_links set hosted_url = ?').run(url);
  }
});

it('devices are renamed from either device, and the name is the same everywhere', async () => {
  const list = await owner.get(`/api/sync/devices?entityId=${owner.entityId}`);
  const laptopDevice = list.body.find((d: { current: boolean }) => !d.current);
  const renamed = await owner.patch(`/api/sync/devices/${laptopDevice.id}`, { entityId: owner.entityId, name: "Dana's laptop" });
  expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  expect(renamed.body).toMatchObject({ name: "Dana's laptop", current: false });
  const seen = await onLaptop.get(`/api/sync/devices?entityId=${owner.entityId}`);
  expect(seen.body.find((d: { current: boolean }) => d.current).name).toBe("Dana's laptop");
  expect((await owner.patch(`/api/sync/devices/${laptopDevice.id}`, { entityId: owner.entityId, name: '' })).status).toBe(400);
});

it('an invitation for an e-mail that already has an account on this install takes its password here: another one is 409 before anything is joined', async () => {
  const local = await laptop.signup({ entityName: 'Lee Sole Trader', password: 'lee password on the laptop' });
  const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email: local.email, name: 'Lee', role: 'member' });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const code = added.body.invitation.code;
  const devicesBefore = (await owner.get(`/api/sync/devices?entityId=${owner.entityId}`)).body.length;
  const refused = await laptop.anon.post('/api/sync/join', { hostedUrl: hosted.url, code, email: local.email, password: 'some other password', name: 'Lee' });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatch(/exists on this install/);
  // Nothing half-joined: no device enrolled, the invitation still waits, the entity is not on the laptop.
  expect((await owner.get(`/api/sync/devices?entityId=${owner.entityId}`)).body.length).toBe(devicesBefore);
  expect((await owner.get(`/api/sync/invitations?entityId=${owner.entityId}`)).body.find((i: { email: string }) => i.email === local.email).state).toBe('sent');
  expect(laptop.ctx.sqlite.prepare('select count(*) as n from memberships where user_id = ? and entity_id = ?').get(local.user.id, owner.entityId)).toEqual({ n: 0 });
});
