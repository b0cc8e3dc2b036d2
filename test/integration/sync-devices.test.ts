// Two device servers and a hosted instance over HTTP: link, join from a fresh install, edit on
// both, converge — and the bad paths, each a clear {error} with nothing half-linked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { uploadPdf } from './documents-helpers.js';

let hosted: RunningHosted;
let a: TestServer;
let b: TestServer;
let owner: SessionClient;
let onB: Client;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-hosted-'));

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
  a = await startTestServer();
  b = await startTestServer();
  owner = await a.signup({ entityName: 'Acme Ltd' });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

const run = (c: Client, entityId: string) => c.post('/api/sync/run', { entityId });
const tickets = async (c: Client) => ((await c.get('/api/helpdesk/tickets')).body as Record<string, unknown>[]).map(({ id, subject, priority, status, ticketNumber }) => ({ id, subject, priority, status, ticketNumber }));

describe('link and join', () => {
  let ticketId: string;
  let documentId: string;

  it('links an entity with its data; a fresh install joins with a code and gets everything', async () => {
    const t = await owner.post('/api/helpdesk/tickets', { subject: 'Printer on fire', priority: 'high', contactEmail: 'c@example.com' });
    ticketId = t.body.id;
    await owner.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'We are on it', isInternal: false });
    const folder = await owner.post('/api/documents/folders', { name: 'Contracts' });
    expect(folder.status, JSON.stringify(folder.body)).toBe(201);
    const doc = await uploadPdf(owner, { name: 'NDA', folderId: folder.body.id });
    documentId = doc.body.id;

    const linked = await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: owner.password });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body).toMatchObject({ linked: true, state: 'synced', waiting: 0, rejected: [] });

    const code = await owner.post('/api/sync/devices/code', {});
    expect(code.status).toBe(201);
    const joined = await b.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: owner.email, password: owner.password });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body.entity).toEqual({ id: owner.entityId, name: 'Acme Ltd' });
    expect(joined.body.user.id).toBe(owner.user.id);
    const cookie = (joined.headers.get('set-cookie') ?? '').split(';')[0];
    onB = makeClient(b.url, { cookie, origin: b.url, 'x-entity-id': owner.entityId });

    expect(await tickets(onB)).toEqual(await tickets(owner));
    const onBTicket = (await onB.get(`/api/helpdesk/tickets/${ticketId}`)).body;
    expect(onBTicket.messages.map((m: { body: string }) => m.body)).toContain('We are on it');
    const folders = (await onB.get('/api/documents/folders')).body;
    expect(JSON.stringify(folders)).toContain('Contracts');
    const original = await owner.request('GET', `/api/documents/${documentId}/content`);
    const copy = await onB.request('GET', `/api/documents/${documentId}/content`);
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual(original.body);
    // The signed-in user on B can sign in again with the same password.
    expect((await b.anon.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);
  });

  it('edits on both devices converge, each column to its newest write', async () => {
    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { subject: 'Printer fixed?' });
    await onB.patch(`/api/helpdesk/tickets/${ticketId}`, { priority: 'urgent' });
    const created = await onB.post('/api/helpdesk/tickets', { subject: 'Opened on the laptop' });
    await onB.post(`/api/helpdesk/tickets/${ticketId}/messages`, { body: 'Written on the laptop', isInternal: true });
    // The same column on both: the later write wins everywhere.
    await owner.patch(`/api/helpdesk/tickets/${created.body.id}`, { priority: 'low' }).catch(() => undefined);
    await run(onB, owner.entityId);
    await run(owner, owner.entityId);
    await owner.patch(`/api/helpdesk/tickets/${created.body.id}`, { priority: 'low' });
    await onB.patch(`/api/helpdesk/tickets/${created.body.id}`, { priority: 'high' });
    for (const c of [owner, onB, owner]) expect((await run(c, owner.entityId)).body.state).toBe('synced');

    const onA = await tickets(owner);
    expect(onA).toEqual(await tickets(onB));
    expect(onA.find((t) => t.id === ticketId)).toMatchObject({ subject: 'Printer fixed?', priority: 'urgent' });
    expect(onA.find((t) => t.id === created.body.id)).toMatchObject({ subject: 'Opened on the laptop', priority: 'high' });
    const messages = (await owner.get(`/api/helpdesk/tickets/${ticketId}`)).body.messages.map((m: { body: string }) => m.body);
    expect(messages).toContain('Written on the laptop');
    expect(messages.filter((m: string) => m === 'We are on it')).toHaveLength(1);
  });

  it('a delete on one device removes the row on the other', async () => {
    const folder = await onB.post('/api/documents/folders', { name: 'Scratch' });
    await run(onB, owner.entityId);
    await run(owner, owner.entityId);
    expect(JSON.stringify((await owner.get('/api/documents/folders')).body)).toContain('Scratch');
    expect((await owner.delete(`/api/documents/folders/${folder.body.id}`)).status).toBeLessThan(300);
    expect((await run(owner, owner.entityId)).body.state).toBe('synced');
    const pulled = await run(onB, owner.entityId);
    expect(pulled.body.state, JSON.stringify(pulled.body)).toBe('synced');
    expect(JSON.stringify((await onB.get('/api/documents/folders')).body)).not.toContain('Scratch');
  });

  it('applying remote changes fires no local events (webhooks and mail fire where the change began)', async () => {
    const before = b.ctx.sqlite.prepare('select count(*) as n from outbox').get() as { n: number };
    await owner.post('/api/helpdesk/tickets', { subject: 'Only A raises events for me' });
    await run(owner, owner.entityId);
    await run(onB, owner.entityId);
    expect(JSON.stringify(await tickets(onB))).toContain('Only A raises events for me');
    expect(b.ctx.sqlite.prepare('select count(*) as n from outbox').get()).toEqual(before);
  });

  it('a rejected change can be retried (pushed in its place) or discarded (the hosted value returns)', async () => {
    const reject = (changeId: string) => a.ctx.sqlite.prepare("update sync_changes set result = 'rejected', reason = 'refused for the test', answered_at = '2026-01-01T00:00:00.000Z' where change_id = ?").run(changeId);
    const queued = () => a.ctx.sqlite.prepare('select change_id as id from sync_changes where entity_id = ? and result is null').all(owner.entityId) as { id: string }[];
    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { subject: 'Retried subject' });
    const [retried] = queued();
    reject(retried.id);
    let status = (await run(owner, owner.entityId)).body;
    expect(status.rejected).toEqual([expect.objectContaining({ changeId: retried.id, table: 'helpdesk_tickets', rowId: ticketId, reason: 'refused for the test' })]);
    expect((await owner.post(`/api/sync/rejected/${retried.id}/retry`, {})).status).toBe(204);
    status = (await run(owner, owner.entityId)).body;
    expect(status).toMatchObject({ state: 'synced', waiting: 0, rejected: [] });
    await run(onB, owner.entityId);
    expect((await onB.get(`/api/helpdesk/tickets/${ticketId}`)).body.subject).toBe('Retried subject');

    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { subject: 'Kept on A only' });
    const [discarded] = queued();
    reject(discarded.id);
    const stranger = await a.signup({ entityName: 'Stranger' });
    expect((await stranger.delete(`/api/sync/rejected/${discarded.id}`)).status).toBe(404); // another entity's entry
    expect((await owner.delete(`/api/sync/rejected/${discarded.id}`)).status).toBe(204);
    expect((await owner.delete(`/api/sync/rejected/${discarded.id}`)).status).toBe(404);
    await run(owner, owner.entityId);
    await run(onB, owner.entityId);
    expect((await onB.get(`/api/helpdesk/tickets/${ticketId}`)).body.subject).toBe('Retried subject');
    expect((await owner.get(`/api/helpdesk/tickets/${ticketId}`)).body.subject).toBe('Retried subject');
    expect(await tickets(owner)).toEqual(await tickets(onB));
  });

  it('lists devices and revokes one; the revoked device says so', async () => {
    const devices = await owner.get('/api/sync/devices');
    expect(devices.status).toBe(200);
    expect(devices.body).toHaveLength(2);
    const other = devices.body.find((d: { current: boolean }) => !d.current);
    expect((await owner.delete(`/api/sync/devices/${other.id}`)).status).toBe(204);
    const status = await run(onB, owner.entityId);
    expect(status.body.state).toBe('revoked');
    // The revoked device can unlink (its waiting changes can never be pushed: force), and keeps its data.
    await onB.post('/api/helpdesk/tickets', { subject: 'written after the revoke' });
    expect((await onB.delete('/api/sync/link')).status).toBe(409);
    expect((await onB.request('DELETE', '/api/sync/link?force=true')).status).toBe(204);
    expect((await onB.get('/api/sync/status')).body).toEqual({ linked: false, state: 'unlinked' });
    expect(JSON.stringify(await tickets(onB))).toContain('written after the revoke');
  });
});

describe('a member on her own machine', () => {
  it('an invited agent joins from a fresh install with her own account and works the same tickets', async () => {
    const c = await startTestServer();
    try {
      const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email: 'agent@example.com', role: 'member', name: 'Agnes Agent' });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const agentId = added.body.member.userId as string;
      const invite = await owner.post('/api/sync/invitations', { userId: agentId });
      expect(invite.status, JSON.stringify(invite.body)).toBe(201);
      expect(invite.body).toMatchObject({ hostedUrl: hosted.url, email: 'agent@example.com', role: 'member' });

      const wrongPerson = await c.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'someone@example.com', password: 'a long enough password' });
      expect(wrongPerson.status).toBe(400);
      const joined = await c.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'agent@example.com', password: 'agnes own password', name: 'Agnes Agent' });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      expect(joined.body.user.id).toBe(agentId);
      const agent = makeClient(c.url, { cookie: (joined.headers.get('set-cookie') ?? '').split(';')[0], origin: c.url, 'x-entity-id': owner.entityId });
      expect((await agent.get('/api/auth/me')).body.entities.find((e: { id: string }) => e.id === owner.entityId).role).toBe('member');
      expect(await tickets(agent)).toEqual(await tickets(owner));

      const ticket = (await tickets(agent))[0];
      expect((await agent.patch(`/api/helpdesk/tickets/${ticket.id}`, { assignedTo: agentId, status: 'pending' })).status).toBe(200);
      await run(agent, owner.entityId);
      await run(owner, owner.entityId);
      expect((await owner.get(`/api/helpdesk/tickets/${ticket.id}`)).body).toMatchObject({ assignedTo: agentId, status: 'pending' });
      // single use: a used invitation says so (409)
      const reused = await c.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'agent@example.com', password: 'agnes own password' });
      expect(reused.status).toBe(409);
      expect(reused.body.error).toMatch(/accepted already/);
      // a member cannot invite
      expect((await agent.post('/api/sync/invitations', { userId: agentId })).status).toBe(403);
    } finally {
      await c.close();
    }
  });
});

describe('bad input', () => {
  let other: SessionClient;
  beforeAll(async () => {
    other = await a.signup({ entityName: 'Other Co' });
  });

  it('wrong hosted credentials: 400, nothing linked', async () => {
    const first = await other.post('/api/sync/link', { hostedUrl: hosted.url, email: other.email, password: other.password });
    expect(first.status).toBe(201);
    const third = await a.signup({ entityName: 'Third', password: 'third has a password of her own' });
    // A password other than this device's is refused here first (one credential per person)…
    const local = await third.post('/api/sync/link', { hostedUrl: hosted.url, email: other.email, password: 'not the password at all' });
    expect(local.status).toBe(400);
    expect(local.body.error).toMatch(/password you sign in to Bureau with on this device/);
    // …and this device's password, when it is not the hosted account's, by the hosted instance.
    const res = await third.post('/api/sync/link', { hostedUrl: hosted.url, email: other.email, password: third.password });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Linking failed/);
    expect((await third.get('/api/sync/status')).body).toEqual({ linked: false, state: 'unlinked' });
  });

  it('linking twice is 409; an unreachable or malformed hosted URL is 502 / 400', async () => {
    expect((await other.post('/api/sync/link', { hostedUrl: hosted.url, email: other.email, password: other.password })).status).toBe(409);
    const fresh = await a.signup();
    const unreachable = await fresh.post('/api/sync/link', { hostedUrl: 'http://127.0.0.1:9', email: fresh.email, password: fresh.password });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.error).toMatch(/Cannot reach/);
    for (const hostedUrl of ['ftp://x', 'not a url', 'http://user:pw@host']) {
      expect((await fresh.post('/api/sync/link', { hostedUrl, email: fresh.email, password: fresh.password })).status).toBe(400);
    }
    expect((await fresh.get('/api/sync/status')).body.linked).toBe(false);
  });

  it('a used or unknown code is 400 and leaves nothing on the joining install', async () => {
    const c = await b.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: 'ABCDE-FGHJK', email: other.email, password: other.password });
    expect(c.status).toBe(400);
    expect(c.body.error).toMatch(/code/);
    expect(b.ctx.sqlite.prepare('select count(*) as n from entities where name = ?').get('Other Co')).toEqual({ n: 0 });
  });

  it('only owners and admins link; API keys cannot', async () => {
    const key = await a.apiKeyClient(other, ['read:helpdesk']);
    expect((await key.post('/api/sync/link', { entityId: other.entityId, hostedUrl: hosted.url, email: other.email, password: other.password })).status).toBe(403);
  });

  it('changes of an unlinked entity are never captured', async () => {
    const loner = await a.signup({ entityName: 'Never linked' });
    await loner.post('/api/helpdesk/tickets', { subject: 'stays here' });
    expect(a.ctx.sqlite.prepare('select count(*) as n from sync_changes where entity_id = ?').get(loner.entityId)).toEqual({ n: 0 });
  });
});
