import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';
import { manualClock, startReceiver } from './webhooks-receiver.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-webhooks-restart-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function pump(server: TestServer) {
  server.ctx.events.drain();
  await server.ctx.loops.runAll();
}

it('loses nothing and sends nothing twice under a new webhook-id across a restart mid-retry', async () => {
  const receiver = await startReceiver();
  const clock = manualClock();
  const first = await startTestServer({ dataDir, clock });
  const owner = await first.signup();
  const sub = (await owner.post('/api/webhook-subscriptions', { url: receiver.url, events: ['ticket.created'] })).body;
  receiver.reply({ status: 500 });
  await owner.post('/api/helpdesk/tickets', { subject: 'one' });
  await pump(first); // attempt 1 fails; a retry is scheduled
  await owner.post('/api/helpdesk/tickets', { subject: 'two' }); // committed, never handed to the delivery loop
  await first.close();
  expect(receiver.received).toHaveLength(1);

  clock.advance(10_000);
  const second = await startTestServer({ dataDir, clock });
  try {
    const client = makeClient(second.url, { cookie: owner.cookie, origin: second.url, 'x-entity-id': owner.entityId });
    await pump(second);
    await pump(second);
    const got = receiver.received;
    const wh = new Webhook(sub.secret);
    const subjects = got.map((r) => {
      const ts = new Date(Number(r.headers['webhook-timestamp']) * 1000);
      expect(wh.sign(r.headers['webhook-id'], ts, r.body)).toBe(r.headers['webhook-signature']);
      return [JSON.parse(r.body).data.ticket.subject, r.headers['webhook-id']];
    });
    expect(subjects.map((s) => s[0]).sort()).toEqual(['one', 'one', 'two']);
    const ids = new Map<string, Set<string>>();
    for (const [subject, id] of subjects) ids.set(subject, (ids.get(subject) ?? new Set()).add(id));
    expect(ids.get('one')!.size).toBe(1);
    const deliveries = (await client.get(`/api/webhook-subscriptions/${sub.id}/deliveries`)).body;
    expect(deliveries.map((d: any) => [d.status, d.attemptCount])).toEqual([
      ['succeeded', 1],
      ['succeeded', 2],
    ]);
    await pump(second);
    expect(receiver.received).toHaveLength(3);
  } finally {
    await second.close();
    await receiver.close();
  }
});

it('closing drops an in-flight delivery at once and sends it again, under the same webhook-id, after a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-webhooks-close-'));
  // An endpoint that holds the first request open without answering, then answers 200.
  const requests: { id: string; closedUnanswered: Promise<boolean> }[] = [];
  let hang = true;
  const endpoint = http.createServer((req, res) => {
    req.resume();
    if (!hang) return void res.end('ok');
    requests.push({ id: String(req.headers['webhook-id']), closedUnanswered: new Promise((resolve) => res.on('close', () => resolve(!res.writableEnded))) });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
  try {
    const first = await startTestServer({ dataDir: dir });
    const owner = await first.signup();
    const sub = (await owner.post('/api/webhook-subscriptions', { url, events: ['ticket.created'] })).body;
    await owner.post('/api/helpdesk/tickets', { subject: 'in flight' });
    first.ctx.events.drain();
    const tick = first.ctx.loops.runAll();
    await expect.poll(() => requests.length).toBe(1);
    await first.close();
    await tick;
    // Bureau hung up without waiting for the 15 s delivery timeout, and recorded no attempt.
    expect(await requests[0].closedUnanswered).toBe(true);

    hang = false;
    const second = await startTestServer({ dataDir: dir });
    try {
      const client = makeClient(second.url, { cookie: owner.cookie, origin: second.url, 'x-entity-id': owner.entityId });
      const [before] = (await client.get(`/api/webhook-subscriptions/${sub.id}/deliveries`)).body;
      expect(before).toMatchObject({ status: 'pending', attemptCount: 0 });
      expect(Date.parse(before.nextAttemptAt)).toBeLessThanOrEqual(Date.now()); // due at once, not after the lease
      await pump(second);
      const [after] = (await client.get(`/api/webhook-subscriptions/${sub.id}/deliveries`)).body;
      expect(after).toMatchObject({ status: 'succeeded', attemptCount: 1, eventId: requests[0].id });
    } finally {
      await second.close();
    }
  } finally {
    await new Promise<void>((resolve) => {
      endpoint.close(() => resolve());
      endpoint.closeAllConnections();
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
