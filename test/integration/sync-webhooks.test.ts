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
import { freePort } from '../helpers/net.js';
import { draftRequest } from './documents-helpers.js';

const W = '/api/webhook-subscriptions';
let hosted: RunningHosted;
let a: TestServer;
let b: TestServer;
let owner: SessionClient;
let onB: Client;
let receiver: Receiver;
let hostedReceiver: Receiver;
let bReceiver: Receiver;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-hooks-'));
const logLines: string[] = [];

beforeAll(async () => {
  const sink = { write: (line: string) => void logLines.push(line) };
  // Its public pages (signing links) at its own address.
  const port = await freePort();
  hosted = await startHosted({ port, publicUrl: `http://127.0.0.1:${port}`, dataDir: hostedDir, logLevel: 'debug', logDestination: sink as never, allowLocalWebhookTargets: true });
  a = await startTestServer({ logLevel: 'debug', logDestination: sink as never });
  b = await startTestServer({ logLevel: 'debug', logDestination: sink as never });
  receiver = await startReceiver();
  hostedReceiver = await startReceiver();
  bReceiver = await startReceiver();
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
  await hostedReceiver?.close();
  await bReceiver?.close();
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

  it('a subscription delivered by the hosted instance gets each event once, with the event id as webhook-id', async () => {
    const created = await owner.post(W, { url: hostedReceiver.url, events: ['ticket.created'], deliveredBy: 'hosted' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.deliveredBy).toBe('hosted');
    await settle();
    const onA = await owner.post('/api/helpdesk/tickets', { subject: 'Hosted sees A' });
    const fromB = await onB.post('/api/helpdesk/tickets', { subject: 'Hosted sees B' });
    await settle();
    await settle();
    const got = ticketCreated(hostedReceiver);
    expect(got.map((r) => JSON.parse(r.body).data.ticket.id).sort()).toEqual([onA.body.id, fromB.body.id].sort());
    const wh = new Webhook(created.body.secret);
    for (const r of got) expect(() => wh.verify(r.body, r.headers)).not.toThrow();
    // webhook-id is the event's id, the same on A, B and the hosted instance.
    const eventIds = (a.ctx.sqlite.prepare("select id from entity_events where type = 'ticket.created'").all() as { id: string }[]).map((r) => r.id);
    for (const r of got) expect(eventIds).toContain(r.headers['webhook-id']);
    // The delivery log (written by the hosted instance) reaches both devices.
    for (const c of [owner, onB]) {
      const log = await c.get(`${W}/${created.body.id}/deliveries`);
      expect(log.body.map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length])).toEqual([['succeeded', 1], ['succeeded', 1]]);
    }
    // The device subscription did not get them twice either.
    expect(ticketCreated(receiver)).toHaveLength(4);
  });

  it('a subscription made on A and delivered by device B: B fetches the secret and delivers events from A and B once', async () => {
    const bDevice = (await onB.get(`/api/sync/status?entityId=${owner.entityId}`)).body.deviceId as string;
    expect(bDevice).toMatch(/^[0-9a-f-]{36}$/);
    const created = await owner.post(W, { url: bReceiver.url, events: ['ticket.created'], deliveredBy: bDevice });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await settle();
    const onA = await owner.post('/api/helpdesk/tickets', { subject: 'B delivers A' });
    const fromB = await onB.post('/api/helpdesk/tickets', { subject: 'B delivers B' });
    await settle();
    await settle();
    const got = ticketCreated(bReceiver);
    expect(got.map((r) => JSON.parse(r.body).data.ticket.id).sort()).toEqual([onA.body.id, fromB.body.id].sort());
    const wh = new Webhook(created.body.secret);
    for (const r of got) expect(() => wh.verify(r.body, r.headers)).not.toThrow();
  });

  it('a test event and a manual retry asked on a device that does not deliver reach the deliverer', async () => {
    const sub = (await onB.get(W)).body.find((s: { url: string }) => s.url === hostedReceiver.url);
    const before = hostedReceiver.received.length;
    const test = await onB.post(`${W}/${sub.id}/test`, {});
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    expect(test.body.status).toBe('pending');
    const [first] = (await onB.get(`${W}/${sub.id}/deliveries?status=succeeded`)).body;
    const retry = await onB.post(`${W}/${sub.id}/deliveries/${first.id}/retry`, {});
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    await settle();
    await settle();
    const sent = hostedReceiver.received.slice(before).map((r) => [JSON.parse(r.body).type, r.headers['webhook-id']]);
    expect(sent).toEqual(expect.arrayContaining([['webhook.test', test.body.eventId], ['ticket.created', first.eventId]]));
    expect(sent).toHaveLength(2);
  });

  it('no secret appears in the hosted log, its database rows or the sync log', async () => {
    // A refused call that carried a secret is logged — without it.
    const token = (a.ctx.sqlite.prepare('select device_token_sealed as t from sync_links').get() as { t: string }).t;
    const leaked = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    const bad = await fetch(`${hosted.url}/sync/v1/webhook-secrets`, { method: 'PUT', headers: { authorization: `Bearer ${a.ctx.secrets.open(token).toString('utf8')}`, 'content-type': 'application/json' }, body: JSON.stringify({ subscriptionId: 'not-a-uuid', version: 'v', secret: leaked }) });
    expect(bad.status).toBe(400);
    // Everything the three processes logged at debug level (the sync cycles, snapshots, deliveries).
    const logText = logLines.join('\n');
    expect(logText).toContain('sync');
    expect(logText).not.toContain(leaked.slice(6));
    const all = a.ctx.sqlite.prepare('select secret_sealed from webhook_secrets').all() as { secret_sealed: string }[];
    const plain = all.map((r) => a.ctx.secrets.open(r.secret_sealed).toString('utf8'));
    expect(plain.length).toBeGreaterThanOrEqual(3);
    const dump = JSON.stringify(await hosted.ctx.store.db.execute('select * from changes')) + JSON.stringify(await hosted.ctx.store.db.execute('select * from rows')) + JSON.stringify(await hosted.ctx.store.db.execute('select * from webhook_secrets'));
    for (const p of plain) {
      expect(logText).not.toContain(p.slice(6));
      expect(dump).not.toContain(p.slice(6));
    }
  });

  it('a decline on the hosted signing page reaches each subscription once (not once per device, not never)', async () => {
    const declinedHere = await owner.post(W, { url: receiver.url, events: ['signature_request.declined'] });
    const declinedHosted = await owner.post(W, { url: hostedReceiver.url, events: ['signature_request.declined'], deliveredBy: 'hosted' });
    expect([declinedHere.status, declinedHosted.status]).toEqual([201, 201]);
    const { requestId, signers } = await draftRequest(owner);
    expect((await owner.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
    const link = await owner.post(`/api/documents/signature-requests/${requestId}/signers/${signers[0].id}/signing-link`, {});
    expect(link.body.url.startsWith(`${hosted.url}/sign/`), JSON.stringify(link.body)).toBe(true);
    await settle();
    const declined = await fetch(`${hosted.url}/api/sign/${link.body.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'decline', reason: 'Wrong amount' }) });
    expect(declined.status, await declined.clone().text()).toBe(200);
    await settle();
    await settle();
    for (const r of [receiver, hostedReceiver]) {
      const got = r.received.filter((x) => JSON.parse(x.body).type === 'signature_request.declined');
      expect(got.map((x) => JSON.parse(x.body).data)).toEqual([expect.objectContaining({ requestId, reason: 'Wrong amount', email: signers[0].email })]);
    }
    // Both devices still tell their own consumers (the request shows declined on both).
    for (const c of [owner, onB]) expect((await c.get(`/api/documents/signature-requests/${requestId}`)).body.status).toBe('declined');
  });

  it("B lists the subscription and its delivery log (entity data), without the secret", async () => {
    const list = await onB.get(W);
    expect(list.status).toBe(200);
    const sub = list.body.find((s: { id: string }) => s.id === deviceSub.id);
    expect(sub).toBeDefined();
    expect(JSON.stringify(sub)).not.toContain(deviceSub.secret.slice(6));
    const deliveries = await onB.get(`${W}/${deviceSub.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    // Every ticket.created since it was made (two in each test above), each delivered once.
    expect(deliveries.body.filter((d: { eventType: string; status: string }) => d.eventType === 'ticket.created' && d.status === 'succeeded')).toHaveLength(6);
  });
});
