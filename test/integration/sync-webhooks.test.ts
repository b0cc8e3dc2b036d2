// Webhooks across devices: two device servers and a hosted instance over HTTP. A subscription
// made on one device receives every event of the entity exactly once, whichever device caused it,
// delivered by the device it names or by the hosted instance; `webhook-id` is the event's id.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';

const W = '/api/webhook-subscriptions';
let hosted: RunningHosted;
let a: TestServer;
let b: TestServer;
let owner: SessionClient;
let onB: Client;
let receiver: Receiver;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-hooks-'));
const logLines: string[] = [];

beforeAll(async () => {
  const sink = { write: (line: string) => void logLines.push(line) };
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'debug', logDestination: sink as never, allowLocalWebhookTargets: true });
  a = await startTestServer();
  b = await startTestServer();
  receiver = await startReceiver();
  owner = await a.signup({ entityName: 'Hooks Ltd' });
  const linked = await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: owner.password });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  const code = await owner.post('/api/sync/devices/code', {});
  const joined = await b.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: owner.email, password: owner.password });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  const cookie = (joined.headers.get('set-cookie') ?? '').split(';')[0];
  onB = makeClient(b.url, { cookie, origin: b.url, 'x-entity-id': owner.entityId });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await hosted?.close();
  await receiver?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

const run = (c: Client) => c.post('/api/sync/run', { entityId: owner.entityId });

/** Sync both devices twice, run their outbox consumers and delivery loops, and the hosted worker. */
async function settle() {
  for (let i = 0; i < 2; i++) {
    for (const [server, client] of [[a, owner], [b, onB]] as const) {
      server.ctx.events.drain();
      const ran = await run(client);
      expect(ran.body.lastError, JSON.stringify(ran.body)).toBeNull();
      await server.ctx.loops.runAll();
      server.ctx.events.drain();
    }
    await (hosted.ctx.webhooks!).deliverDue();
  }
}

const ticketCreated = (r: Receiver) => r.received.filter((x) => JSON.parse(x.body).type === 'ticket.created');

describe('webhooks across devices', () => {
  let deviceSub: { id: string; secret: string };

  it('a subscription made on device A (delivered by A) gets ticket.created once for tickets created on A and on B', async () => {
    const created = await owner.post(W, { url: receiver.url, events: ['ticket.created'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    deviceSub = created.body;
    await settle();
    const onA = await owner.post('/api/helpdesk/tickets', { subject: 'Raised on A' });
    const fromB = await onB.post('/api/helpdesk/tickets', { subject: 'Raised on B' });
    await settle();
    await settle();
    const got = ticketCreated(receiver).map((r) => JSON.parse(r.body).data.ticket.id as string);
    expect(got.sort()).toEqual([onA.body.id, fromB.body.id].sort());
    // Signed with the subscription's secret; webhook-id is the event's id.
    const wh = new Webhook(deviceSub.secret);
    for (const r of ticketCreated(receiver)) expect(() => wh.verify(r.body, r.headers)).not.toThrow();
  });

  it("B lists the subscription and its delivery log (entity data), without the secret", async () => {
    const list = await onB.get(W);
    expect(list.status).toBe(200);
    const sub = list.body.find((s: { id: string }) => s.id === deviceSub.id);
    expect(sub).toBeDefined();
    expect(JSON.stringify(sub)).not.toContain(deviceSub.secret.slice(6));
    const deliveries = await onB.get(`${W}/${deviceSub.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.filter((d: { eventType: string; status: string }) => d.eventType === 'ticket.created' && d.status === 'succeeded')).toHaveLength(2);
  });
});
