// The hosted webhook deliverer, on PGlite and on PostgreSQL: jobs queued in the push that accepts
// an event, delivered once (signed, webhook-id = the event id), retried on the schedule, written
// back to the log for every device; secrets only through their endpoint; with PostgreSQL, two
// processes on one database never deliver one job twice (FOR UPDATE SKIP LOCKED).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { v7 as uuidv7 } from 'uuid';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { webhookJobs } from '../../server/hosted/schema.js';
import { pruneFinishedJobs } from '../../server/hosted/webhook-worker.js';
import { eq } from 'drizzle-orm';
import { call, link, type Device } from './client.js';
import { startReceiver, type Receiver } from '../integration/webhooks-receiver.js';

export function hostedWebhooksSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted webhooks on ${name}`, () => {
    let hosted: RunningHosted;
    let second: RunningHosted | undefined;
    let receiver: Receiver;
    let offsetMs = 0;
    const clock = { now: () => new Date(Date.now() + offsetMs) };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-hooks-'));
    const secretKey = crypto.randomBytes(32).toString('base64');
    let url: string | undefined;

    beforeAll(async () => {
      url = await databaseUrl();
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: url, logLevel: 'silent', clock, allowLocalWebhookTargets: true, secretKey });
      // A second process on the same PostgreSQL, sharing the key (PGlite is one process).
      if (url) second = await startHosted({ port: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-hooks2-')), databaseUrl: url, logLevel: 'silent', clock, allowLocalWebhookTargets: true, secretKey });
      receiver = await startReceiver();
    }, 120_000);
    afterAll(async () => {
      await second?.close();
      await hosted?.close();
      await receiver?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;

    async function subscribe(device: Device, opts: { deliveredBy?: string; version?: string; share?: boolean } = {}) {
      const id = uuidv7();
      const version = opts.version ?? id;
      const now = new Date().toISOString();
      const res = await device.push([
        device.change('webhook_subscriptions', id, {
          id, entity_id: device.enrolment.entity.id, url: receiver.url, events: JSON.stringify(['ticket.created']), secret_version: version, delivered_by: opts.deliveredBy ?? 'hosted',
          description: null, enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null, metadata: '{}', created_at: now, updated_at: now,
        }),
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.results[0].status).toBe('accepted');
      if (opts.share !== false) expect((await call(device.base, 'PUT', '/sync/v1/webhook-secrets', { token: device.token, body: { subscriptionId: id, version, secret } })).status).toBe(204);
      return id;
    }

    function event(device: Device, subject: string) {
      const id = uuidv7();
      return { id, change: device.change('entity_events', id, { id, entity_id: device.enrolment.entity.id, type: 'ticket.created', data: JSON.stringify({ ticket: { subject } }), created_at: new Date(Date.now() + 5).toISOString(), origin: device.enrolment.deviceId }, 'fact') };
    }

    const deliver = () => hosted.ctx.webhooks!.deliverDue();
    const receivedFor = (eventId: string) => receiver.received.filter((r) => r.headers['webhook-id'] === eventId);

    it('delivers an event a device pushed once, signed, and writes the delivery and its attempt back to the log', async () => {
      const { device } = await link(hosted.url);
      const subId = await subscribe(device);
      const e = event(device, 'Printer on fire');
      expect((await device.push([e.change])).body.results[0].status).toBe('accepted');
      await deliver();
      const got = receivedFor(e.id);
      expect(got).toHaveLength(1);
      expect(JSON.parse(got[0].body)).toMatchObject({ type: 'ticket.created', data: { ticket: { subject: 'Printer on fire' } } });
      expect(() => new Webhook(secret).verify(got[0].body, got[0].headers)).not.toThrow();
      // The same event again (a device retrying its push, or the fact pushed by another) queues nothing.
      await device.push([{ ...e.change, id: crypto.randomUUID() }]);
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(1);
      const { changes } = await device.pullAll();
      const delivery = changes.find((c: any) => c.table === 'webhook_deliveries' && c.columns.event_id === e.id);
      expect(delivery.columns).toMatchObject({ subscription_id: subId, status: 'succeeded', attempt_count: 1 });
      expect(changes.filter((c: any) => c.table === 'webhook_attempts' && c.columns.delivery_id === delivery.rowId)).toHaveLength(1);
      expect(JSON.stringify(changes)).not.toContain(secret.slice(6));
    });

    it('retries on failure on the schedule, under the same webhook-id', async () => {
      const { device } = await link(hosted.url);
      await subscribe(device);
      receiver.reply({ status: 503 });
      const e = event(device, 'Flaky');
      await device.push([e.change]);
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(1);
      await deliver(); // not due yet
      expect(receivedFor(e.id)).toHaveLength(1);
      offsetMs += 10_000;
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(2);
      const { changes } = await device.pullAll();
      const last = changes.filter((c: any) => c.table === 'webhook_deliveries' && c.columns.event_id === e.id).at(-1);
      expect(last.columns).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    });

    it('forgets finished jobs after 30 days and keeps pending ones', async () => {
      const { device } = await link(hosted.url);
      await subscribe(device);
      const e = event(device, 'Old news');
      await device.push([e.change]);
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(1);
      receiver.reply({ status: 503 });
      const waiting = event(device, 'Still trying');
      await device.push([waiting.change]);
      await deliver();
      const jobsOf = async (eventId: string) => (await hosted.ctx.store.db.select().from(webhookJobs).where(eq(webhookJobs.eventId, eventId))).map((j) => j.status);
      expect(await jobsOf(e.id)).toEqual(['succeeded']);
      expect(await jobsOf(waiting.id)).toEqual(['pending']);
      // The worker prunes at most once an hour; the pruning itself, a month on (the clock put back after).
      try {
        offsetMs += 29 * 86_400_000;
        await pruneFinishedJobs(hosted.ctx);
        expect(await jobsOf(e.id)).toEqual(['succeeded']);
        offsetMs += 2 * 86_400_000;
        expect(await pruneFinishedJobs(hosted.ctx)).toBeGreaterThanOrEqual(1);
        expect(await jobsOf(e.id)).toEqual([]);
        expect(await jobsOf(waiting.id)).toEqual(['pending']);
      } finally {
        offsetMs -= 31 * 86_400_000;
      }
    });

    it('waits for the secret, and gives it back only to the device a subscription names', async () => {
      const { device } = await link(hosted.url);
      const subId = await subscribe(device, { share: false });
      const e = event(device, 'Secretless');
      await device.push([e.change]);
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(0);
      expect((await call(hosted.url, 'GET', `/sync/v1/webhook-secrets/${subId}?version=${subId}`, { token: device.token })).status).toBe(404);
      expect((await call(hosted.url, 'PUT', '/sync/v1/webhook-secrets', { token: device.token, body: { subscriptionId: subId, version: subId, secret } })).status).toBe(204);
      offsetMs += 60_000;
      await deliver();
      expect(receivedFor(e.id)).toHaveLength(1);
      // Handed to this device: it (and only it) may fetch the secret in force.
      await device.push([device.change('webhook_subscriptions', subId, { delivered_by: device.enrolment.deviceId })]);
      const mine = await call(hosted.url, 'GET', `/sync/v1/webhook-secrets/${subId}?version=${subId}`, { token: device.token });
      expect(mine.status).toBe(200);
      expect(mine.body.secret).toBe(secret);
      const { device: stranger } = await link(hosted.url);
      expect((await call(hosted.url, 'GET', `/sync/v1/webhook-secrets/${subId}?version=${subId}`, { token: stranger.token })).status).toBe(404);
      expect((await call(hosted.url, 'PUT', '/sync/v1/webhook-secrets', { token: device.token, body: { subscriptionId: 'nope', version: 'v', secret } })).status).toBe(400);
      expect(JSON.stringify(await hosted.ctx.store.db.execute('select * from webhook_secrets'))).not.toContain(secret.slice(6));
    });

    it('several processes on one database deliver each job once', async () => {
      const { device } = await link(hosted.url);
      await subscribe(device);
      const events = Array.from({ length: 30 }, (_, i) => event(device, `Burst ${i}`));
      await device.push(events.map((e) => e.change));
      const passes = [hosted.ctx.webhooks!.deliverDue(), hosted.ctx.webhooks!.deliverDue()];
      if (second) passes.push(second.ctx.webhooks!.deliverDue(), second.ctx.webhooks!.deliverDue());
      await Promise.all(passes);
      await deliver();
      for (const e of events) expect(receivedFor(e.id)).toHaveLength(1);
    });
  });
}
