import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, memberClient, postEvent } from './ledger-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
let ownerEvent: any;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
  ownerEvent = await postEvent(owner, invoice());
});
afterAll(() => server.close());

describe('ledger access', () => {
  it('needs credentials and an entity', async () => {
    expect((await server.anon.get(`/api/ledger/events?entityId=${owner.entityId}`)).status).toBe(401);
    const key = await server.apiKeyClient(owner, ['read:ledger']);
    const none = await key.get('/api/ledger/events');
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('entityId required');
    expect((await key.get('/api/ledger/events?entityId=nope')).status).toBe(400);
  });

  it('API keys: read:ledger reads, write:ledger writes, another entity is 403', async () => {
    const reader = await server.apiKeyClient(owner, ['read:ledger']);
    expect((await reader.get(`/api/ledger/events?entityId=${owner.entityId}`)).status).toBe(200);
    const denied = await reader.post('/api/ledger/events', { entityId: owner.entityId, ...invoice() });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/write:ledger/);
    const writer = await server.apiKeyClient(owner, ['write:ledger']);
    const created = await writer.post('/api/ledger/events', { entityId: owner.entityId, ...invoice() });
    expect(created.status).toBe(201);
    expect(created.body.source).toBe('api');
    expect((await writer.get(`/api/ledger/events?entityId=${owner.entityId}`)).status).toBe(403);
    const mismatch = await writer.post('/api/ledger/events', { entityId: other.entityId, ...invoice() });
    expect(mismatch.status).toBe(403);
    const helpdeskKey = await server.apiKeyClient(owner, ['read:helpdesk']);
    expect((await helpdeskKey.get(`/api/ledger/trial-balance?entityId=${owner.entityId}`)).status).toBe(403);
  });

  it('API keys cannot approve or reject (a person decides)', async () => {
    const key = await server.apiKeyClient(owner, ['read:ledger', 'write:ledger']);
    const res = await key.post(`/api/ledger/events/${ownerEvent.id}/approve`, { entityId: owner.entityId });
    expect(res.status).toBe(403);
  });

  it("another entity's ids are 404, and non-members are 403", async () => {
    expect((await other.get(`/api/ledger/events/${ownerEvent.id}`)).status).toBe(404);
    expect((await other.post(`/api/ledger/events/${ownerEvent.id}/reverse`, {})).status).toBe(404);
    expect((await other.get(`/api/ledger/journal?eventId=${ownerEvent.id}`)).body.total).toBe(0);
    const accounts = await owner.get('/api/ledger/accounts');
    const acc = accounts.body[0];
    expect((await other.patch(`/api/ledger/accounts/${acc.id}`, { name: 'Hijacked' })).status).toBe(404);
    const notMember = await other.get('/api/ledger/events', { headers: { 'x-entity-id': owner.entityId } });
    expect(notMember.status).toBe(403);
  });

  it('roles: viewers read only, members post but cannot approve', async () => {
    await owner.put('/api/ledger/settings', { approvalThresholds: { USD: '1000' } });
    const held = await postEvent(owner, invoice('2000.00', '0'));
    const viewer = await memberClient(server, owner, 'viewer');
    expect((await viewer.get('/api/ledger/events')).status).toBe(200);
    const viewerPost = await viewer.post('/api/ledger/events', invoice());
    expect(viewerPost.status).toBe(403);
    expect(viewerPost.body.error).toMatch(/LEDGER.POST/);
    const member = await memberClient(server, owner, 'member');
    expect((await member.post('/api/ledger/events', invoice())).status).toBe(201);
    const approve = await member.post(`/api/ledger/events/${held.id}/approve`, {});
    expect(approve.status).toBe(403);
    expect(approve.body.error).toMatch(/LEDGER.APPROVE/);
    expect((await member.post('/api/ledger/accounts', { code: '7000', name: 'X', type: 'expense' })).status).toBe(403);
    const admin = await memberClient(server, owner, 'admin');
    expect((await admin.post(`/api/ledger/events/${held.id}/approve`, {})).status).toBe(200);
  });
});
