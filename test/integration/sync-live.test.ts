// The device side of initial sync and the live loop, over HTTP against a real hosted instance:
// a new snapshot when the hosted log cannot continue the device's cursor, "syncing n of m",
// "update required" (read-only), a clock far off the hosted instance's, token rotation, and two
// online devices that see each other's changes without anyone pressing "Sync now".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { call, Device } from '../hosted/client.js';
import { cellStamps } from '../helpers/sync-stamps.js';

let hosted: RunningHosted;
let a: TestServer;
let b: TestServer;
let owner: SessionClient;
let onB: Client;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-live-'));

const run = (c: Client, entityId: string) => c.post('/api/sync/run', { entityId });
const tickets = async (c: Client) => ((await c.get('/api/helpdesk/tickets?limit=200')).body as Record<string, unknown>[]).map(({ id, subject, priority, status }) => ({ id, subject, priority, status })).sort((x, y) => String(x.id).localeCompare(String(y.id)));
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0];

/** Joins `server` to the owner's entity with a fresh add-device code; returns a client signed in there. */
async function join(server: TestServer): Promise<Client> {
  const code = await owner.post('/api/sync/devices/code', {});
  const joined = await server.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: owner.email, password: owner.password });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  return makeClient(server.url, { cookie: cookieOf(joined), origin: server.url, 'x-entity-id': owner.entityId });
}

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
  a = await startTestServer();
  b = await startTestServer();
  owner = await a.signup({ entityName: 'Live Ltd' });
  await owner.post('/api/helpdesk/tickets', { subject: 'Before the link' });
  const linked = await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: owner.password });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  onB = await join(b);
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

describe('initial sync and re-snapshot', () => {
  it('a joined device starts from a snapshot, at the hosted seq, with the hosted stamps', async () => {
    expect(await tickets(onB)).toEqual(await tickets(owner));
    const cursor = (b.ctx.sqlite.prepare('select cursor from sync_links').get() as { cursor: number }).cursor;
    const head = ((await hosted.ctx.store.db.execute(`select last_seq from entities where id = '${owner.entityId}'`)) as unknown as { rows: { last_seq: number }[] }).rows[0];
    expect(cursor).toBe(Number(head.last_seq));
    const stamps = (s: TestServer) => cellStamps(s.ctx.sqlite, 'helpdesk_tickets');
    expect(stamps(b)).toEqual(stamps(a));
  });

  it('takes a new snapshot when the hosted log cannot continue its cursor, and keeps syncing after it', async () => {
    await owner.post('/api/helpdesk/tickets', { subject: 'While B was ahead' });
    await run(owner, owner.entityId);
    // As if the hosted instance had been restored from an older backup: B's cursor is past its log.
    b.ctx.sqlite.prepare('update sync_links set cursor = cursor + 1000').run();
    const status = await run(onB, owner.entityId);
    expect(status.body).toMatchObject({ state: 'synced', progress: null });
    expect(await tickets(onB)).toEqual(await tickets(owner));
    const edited = await onB.post('/api/helpdesk/tickets', { subject: 'After the new snapshot' });
    await run(onB, owner.entityId);
    await run(owner, owner.entityId);
    expect((await owner.get(`/api/helpdesk/tickets/${edited.body.id}`)).body.subject).toBe('After the new snapshot');
  });

  it('reports "syncing n of m" while a long snapshot runs', async () => {
    // 3,000 rows pushed straight to the hosted instance by another device of the owner.
    const code = await owner.post('/api/sync/devices/code', {});
    const enrolled = await call(hosted.url, 'POST', '/sync/v1/join', { body: { code: code.body.code, email: owner.email, password: owner.password, deviceName: 'Importer' } });
    const importer = new Device(hosted.url, enrolled.body);
    const now = new Date().toISOString();
    for (let i = 0; i < 3000; i += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => {
        const id = uuidv4();
        return importer.change('helpdesk_tickets', id, { id, entity_id: owner.entityId, ticket_number: `IMP-${i + k}`, subject: `Imported ${i + k}`, description: null, status: 'new', priority: 'normal', channel: 'api', contact_email: null, contact_name: null, category_id: null, created_by: null, assigned_to: null, search_text: `imported ${i + k}`, created_at: now, updated_at: now, first_response_at: null, resolved_at: null, closed_at: null });
      });
      expect((await importer.push(batch)).status).toBe(200);
    }
    b.ctx.sqlite.prepare('update sync_links set needs_snapshot = 1').run();
    const seen: { phase: string; done: number; total: number }[] = [];
    let finished = false;
    const cycle = run(onB, owner.entityId).finally(() => (finished = true));
    while (!finished) {
      const s = (await onB.get('/api/sync/status')).body;
      if (s.progress) seen.push(s.progress);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await cycle).body).toMatchObject({ state: 'synced', progress: null });
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) {
      expect(['snapshot', 'pull', 'push']).toContain(p.phase);
      expect(p.done).toBeLessThanOrEqual(p.total);
    }
    expect(seen.some((p) => p.phase === 'snapshot' && p.total >= 3000)).toBe(true);
    expect((b.ctx.sqlite.prepare('select count(*) as n from helpdesk_tickets where entity_id = ?').get(owner.entityId) as { n: number }).n).toBeGreaterThanOrEqual(3002);
  }, 60_000);
});

describe('update required', () => {
  it('a device older than the hosted instance accepts goes read-only for that entity, and writes again once it syncs', async () => {
    hosted.ctx.minSchemaVersion = 2;
    try {
      const status = await run(onB, owner.entityId);
      expect(status.body).toMatchObject({ state: 'update_required', readOnly: true });
      expect(status.body.lastError).toMatch(/Update required/);
      const refused = await onB.post('/api/helpdesk/tickets', { subject: 'Not while outdated' });
      expect(refused.status).toBe(423);
      expect(refused.body.error).toMatch(/^Update required/);
      const ticket = (await tickets(onB))[0];
      expect((await onB.patch(`/api/helpdesk/tickets/${ticket.id}`, { priority: 'urgent' })).status).toBe(423);
      expect((await onB.get('/api/helpdesk/tickets')).status).toBe(200);
      // Another entity on the same install is not affected.
      const mine = await b.signup({ entityName: 'Not synced' });
      expect((await mine.post('/api/helpdesk/tickets', { subject: 'Local entity' })).status).toBe(201);
      // Meanwhile an up-to-date device writes; the outdated one gets it once it syncs again.
      hosted.ctx.minSchemaVersion = 1;
      const meanwhile = await owner.post('/api/helpdesk/tickets', { subject: 'Written meanwhile' });
      expect((await run(owner, owner.entityId)).body.state).toBe('synced');
      hosted.ctx.minSchemaVersion = 2;
      expect((await run(onB, owner.entityId)).body.state).toBe('update_required');
      hosted.ctx.minSchemaVersion = 1;
      expect((await run(onB, owner.entityId)).body).toMatchObject({ state: 'synced', readOnly: false });
      expect((await onB.get(`/api/helpdesk/tickets/${meanwhile.body.id}`)).body.subject).toBe('Written meanwhile');
    } finally {
      hosted.ctx.minSchemaVersion = 1;
    }
    expect((await run(onB, owner.entityId)).body).toMatchObject({ state: 'synced', readOnly: false });
    expect((await onB.post('/api/helpdesk/tickets', { subject: 'Updated again' })).status).toBe(201);
    await run(onB, owner.entityId);
  });
});

describe('clock far from the hosted instance', () => {
  it('a device 15 minutes behind syncs in hosted time, warns, and its later write wins', async () => {
    const late = await startTestServer({ clock: { now: () => new Date(Date.now() - 15 * 60_000) } });
    try {
      const onLate = await join(late);
      const status = (await onLate.get('/api/sync/status')).body;
      expect(status).toMatchObject({ state: 'synced', clockWarning: true });
      expect(status.clockOffsetMs).toBeGreaterThan(14 * 60_000);
      const ticket = (await tickets(owner))[0];
      await owner.patch(`/api/helpdesk/tickets/${ticket.id}`, { priority: 'low' });
      // Later by well over the offset's measuring error (an answer's travel time), far less than the 15 minutes.
      await new Promise((r) => setTimeout(r, 1500));
      await onLate.patch(`/api/helpdesk/tickets/${ticket.id}`, { priority: 'urgent' });
      for (const [c] of [[owner], [onLate], [owner]] as const) expect((await run(c, owner.entityId)).body.state).toBe('synced');
      expect((await owner.get(`/api/helpdesk/tickets/${ticket.id}`)).body.priority).toBe('urgent');
      expect((await onLate.get(`/api/helpdesk/tickets/${ticket.id}`)).body.priority).toBe('urgent');
      expect((await owner.get('/api/sync/status')).body.clockWarning).toBe(false);
    } finally {
      await late.close();
    }
  });
});

describe('device token rotation', () => {
  it('replaces the token; the old one is refused once the new one was used', async () => {
    const sealed = (a.ctx.sqlite.prepare('select device_token_sealed as t from sync_links where entity_id = ?').get(owner.entityId) as { t: string }).t;
    const old = a.ctx.secrets.open(sealed).toString('utf8');
    const rotated = await owner.post('/api/sync/devices/rotate', {});
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.state).toBe('synced');
    expect((await call(hosted.url, 'GET', '/sync/v1/pull', { token: old })).status).toBe(401);
    expect((await run(owner, owner.entityId)).body.state).toBe('synced');
    const stranger = await a.signup({ entityName: 'Unlinked' });
    expect((await stranger.post('/api/sync/devices/rotate', {})).status).toBe(409);
  });
});

describe('two online devices', () => {
  it('see each other’s changes without a manual sync (long-poll, and a push within a tick)', async () => {
    const x = await startTestServer({ backgroundLoops: true });
    const y = await startTestServer({ backgroundLoops: true });
    try {
      const xOwner = await x.signup({ entityName: 'Online' });
      expect((await xOwner.post('/api/sync/link', { hostedUrl: hosted.url, email: xOwner.email, password: xOwner.password })).status).toBe(201);
      const code = await xOwner.post('/api/sync/devices/code', {});
      const joined = await y.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: xOwner.email, password: xOwner.password });
      expect(joined.status).toBe(201);
      const onY = makeClient(y.url, { cookie: cookieOf(joined), origin: y.url, 'x-entity-id': xOwner.entityId });
      const arrives = async (server: TestServer, id: string) => {
        const found = server.ctx.sqlite.prepare('select 1 from helpdesk_tickets where id = ?');
        for (let waited = 0; !found.get(id); waited += 20) {
          if (waited > 15_000) throw new Error('the change did not arrive');
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const fromX = await xOwner.post('/api/helpdesk/tickets', { subject: 'Made on X' });
      await arrives(y, fromX.body.id);
      const fromY = await onY.post('/api/helpdesk/tickets', { subject: 'Made on Y' });
      await arrives(x, fromY.body.id);
      expect((await onY.get('/api/sync/status')).body.waiting).toBe(0);
    } finally {
      await x.close();
      await y.close();
    }
  }, 60_000);
});
