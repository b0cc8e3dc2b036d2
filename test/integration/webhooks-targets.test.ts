import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMemberClient } from './helpdesk-fixtures.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';
import { isNonPublicAddress } from '../../server/webhooks/targets.js';

const W = '/api/webhook-subscriptions';
const S = `${W}/settings`;
let server: TestServer;
let owner: SessionClient;
let receiver: Receiver;

async function pump() {
  server.ctx.events.drain();
  await server.ctx.loops.runAll();
}

describe('local targets on a hosted-style server (default off)', () => {
  beforeAll(async () => {
    server = await startTestServer({ allowLocalWebhookTargets: false });
    owner = await server.signup();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('reports the installation default', async () => {
    expect((await owner.get(S)).body).toEqual({ allowLocalTargets: false, source: 'default' });
  });

  it.each(['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://api.localhost/x', 'http://[::1]/x', 'http://10.1.2.3/x', 'http://192.168.1.1/x', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/x', 'http://0.0.0.0/x'])(
    'refuses %s with 400',
    async (url) => {
      const res = await owner.post(W, { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^url: .* does not allow local webhook targets$/);
    },
  );

  it('accepts a public name (resolved and checked again at delivery)', async () => {
    const res = await owner.post(W, { url: 'https://hooks.example.com/in', events: ['ticket.created'] });
    expect(res.status).toBe(201);
    await owner.delete(W, { subscriptionId: res.body.id });
  });

  it('lets a member with SETTINGS.MANAGE allow local targets for the entity, and delivers to them', async () => {
    const key = await server.apiKeyClient(owner, ['write:webhooks', 'read:webhooks']);
    expect((await key.put(`${S}?entityId=${owner.entityId}`, { allowLocalTargets: true })).status).toBe(403);
    const member = await addMemberClient(server, owner, 'member');
    expect((await member.put(S, { allowLocalTargets: true })).status).toBe(403);
    expect((await owner.put(S, { allowLocalTargets: 'yes' })).status).toBe(400);
    expect((await owner.put(S, { allowLocalTargets: true })).body).toEqual({ allowLocalTargets: true, source: 'entity' });
    const sub = (await owner.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    expect(sub.id).toBeDefined();
    await owner.post('/api/helpdesk/tickets', { subject: 'local ok' });
    await pump();
    expect(receiver.received).toHaveLength(1);

    // Turned off again: the next delivery is refused before any connection is made.
    expect((await owner.put(S, { allowLocalTargets: null })).body).toEqual({ allowLocalTargets: false, source: 'default' });
    await owner.post('/api/helpdesk/tickets', { subject: 'local refused' });
    await pump();
    expect(receiver.received).toHaveLength(1);
    const [d] = (await owner.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ success: false, statusCode: null, error: expect.stringContaining('does not allow local webhook targets') });
  });

  it('refuses a public-looking name that resolves to a local address, at connect time', async () => {
    const name = os.hostname();
    const addresses = await dns.lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0 || !addresses.every((a) => isNonPublicAddress(a.address))) return; // this host's name is public here
    const o = await server.signup();
    await o.put(S, { allowLocalTargets: false });
    const sub = (await o.post(W, { url: `http://${name}:${receiver.port}/hook`, events: ['ticket.created'] })).body;
    expect(sub.id).toBeDefined();
    const before = receiver.received.length;
    await o.post('/api/helpdesk/tickets', { subject: 'rebinding' });
    await pump();
    expect(receiver.received.length).toBe(before);
    const [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d.attempts[0].error).toMatch(/resolves to .*local or private address/);
  });
});

describe('address classification', () => {
  it.each([
    ['127.0.0.1', true], ['10.0.0.1', true], ['172.16.5.4', true], ['172.32.0.1', false], ['192.168.0.1', true], ['100.64.0.1', true], ['169.254.1.1', true],
    ['8.8.8.8', false], ['93.184.216.34', false], ['::1', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:10.0.0.1', true], ['::ffff:8.8.8.8', false], ['2606:4700::1111', false],
  ])('%s non-public: %s', (address, expected) => {
    expect(isNonPublicAddress(address)).toBe(expected);
  });
});
