import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMemberClient } from './helpdesk-fixtures.js';
import { manualClock, startReceiver, type Receiver } from './webhooks-receiver.js';

const W = '/api/webhook-subscriptions';
let server: TestServer;
let owner: SessionClient;
let receiver: Receiver;
const clock = manualClock();

beforeAll(async () => {
  server = await startTestServer({ clock });
  owner = await server.signup({ name: 'Olive Owner' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

/** Runs the outbox consumers, then the delivery loop, as the background loops would. */
async function pump() {
  server.ctx.events.drain();
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}

describe('subscriptions', () => {
  it('creates with a generated whsec_ secret shown once, lists without it, gets, updates and deletes', async () => {
    const res = await owner.post(W, { url: receiver.url, events: ['ticket.created'], description: 'CRM sync', metadata: { team: 'ops' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ entityId: owner.entityId, url: receiver.url, events: ['ticket.created'], description: 'CRM sync', enabled: true, disabledReason: null, failingSince: null, metadata: { team: 'ops' } });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = res.body.id;
    const list = await owner.get(W);
    expect(list.body.map((s: any) => s.id)).toContain(id);
    expect(list.body.every((s: any) => !('secret' in s) && !('secretSealed' in s))).toBe(true);
    expect((await owner.get(`${W}/${id}`)).body).not.toHaveProperty('secret');

    const upd = await owner.put(W, { subscriptionId: id, events: ['*'], description: null, enabled: false });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ events: ['*'], description: null, enabled: false, disabledReason: 'Disabled by a member' });
    expect((await owner.put(W, { subscriptionId: id, enabled: true })).body).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    const del = await owner.delete(W, { subscriptionId: id });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id });
    expect((await owner.delete(W, { subscriptionId: id })).status).toBe(404);
    expect((await owner.put(W, { subscriptionId: id, url: receiver.url })).status).toBe(404);
    expect((await owner.get(`${W}/${id}`)).status).toBe(404);
  });

  it('keeps the secret sealed at rest', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const res = await owner.post(W, { url: receiver.url, events: ['ticket.created'], secret });
    expect(res.body.secret).toBe(secret);
    const row = server.ctx.sqlite.prepare('SELECT * FROM webhook_subscriptions WHERE id = ?').get(res.body.id) as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    await owner.delete(W, { subscriptionId: res.body.id });
  });

  it.each([
    [{ events: ['ticket.created'] }, 'url: is required'],
    [{ url: 'not a url', events: ['ticket.created'] }, 'url: must be a valid absolute URL'],
    [{ url: 'ftp://example.com/x', events: ['ticket.created'] }, 'url: must use http or https'],
    [{ url: 'https://user:pw@example.com/x', events: ['ticket.created'] }, 'url: must not contain credentials'],
    [{ url: 'https://example.com/x' }, 'events'],
    [{ url: 'https://example.com/x', events: [] }, 'events: must name at least one event type'],
    [{ url: 'https://example.com/x', events: ['ticket.exploded'] }, 'Unknown event type: ticket.exploded'],
    [{ url: 'https://example.com/x', events: ['ticket.created', 'ticket.created'] }, 'events: must not repeat'],
    [{ url: 'https://example.com/x', events: ['*'], secret: 'hunter2' }, 'secret: must be "whsec_"'],
    [{ url: 'https://example.com/x', events: ['*'], secret: 'whsec_c2hvcnQ=' }, 'secret: must be "whsec_"'],
    [{ url: 'https://example.com/x', events: ['*'], retries: 3 }, 'Unrecognized key'],
    [{ url: 'https://example.com/x', events: ['*'], metadata: { a: 1 } }, 'metadata'],
  ])('rejects create %j with 400', async (body, message) => {
    const res = await owner.post(W, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('an entity that is not linked: this device delivers (deliveredBy null); naming another deliverer is a 400', async () => {
    const res = await owner.post(W, { url: receiver.url, events: ['ticket.created'] });
    expect(res.body.deliveredBy).toBeNull();
    const here = await owner.post(W, { url: receiver.url, events: ['ticket.created'], deliveredBy: 'this-device' });
    expect(here.body.deliveredBy).toBeNull();
    for (const deliveredBy of ['hosted', '01a21a3d-0c75-738c-b1e9-d53e18d82427']) {
      const refused = await owner.post(W, { url: receiver.url, events: ['ticket.created'], deliveredBy });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/not linked/);
    }
    expect((await owner.post(W, { url: receiver.url, events: ['ticket.created'], deliveredBy: 'somebody' })).status).toBe(400);
    for (const id of [res.body.id, here.body.id]) expect((await owner.delete(W, { subscriptionId: id })).status).toBe(200);
  });

  it('rejects bad updates with 400', async () => {
    expect((await owner.put(W, { url: receiver.url })).body.error).toBe('subscriptionId: is required');
    const s = (await owner.post(W, { url: receiver.url, events: ['*'] })).body;
    expect((await owner.put(W, { subscriptionId: s.id })).body.error).toContain('Nothing to update');
    expect((await owner.put(W, { subscriptionId: s.id, events: ['nope'] })).status).toBe(400);
    expect((await owner.delete(W, {})).status).toBe(400);
    await owner.delete(W, { subscriptionId: s.id });
  });

  it('documents the routes and the delivery format in OpenAPI', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    for (const m of ['get', 'post', 'put', 'delete']) expect(doc.paths[W][m]).toBeDefined();
    expect(doc.paths[`${W}/{subscriptionId}/deliveries`].get).toBeDefined();
    expect(doc.paths[`${W}/{subscriptionId}/deliveries/{deliveryId}/retry`].post).toBeDefined();
    expect(doc.paths[W].post.description).toContain('webhook-signature: v1,');
    expect(doc.paths[W].post.description).toContain("Svix's schedule");
  });

  it('publishes the event catalogue', async () => {
    const res = await owner.get(`${W}/event-types`);
    expect(res.status).toBe(200);
    const types = res.body.map((e: any) => e.type);
    for (const t of ['ticket.created', 'ticket.updated', 'ticket.status_changed', 'ticket.message.created', 'notification.created']) expect(types).toContain(t);
  });
});

describe('access', () => {
  it('scopes keys to read:webhooks / write:webhooks and their entity; other entities see 404', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['*'] })).body;
    const reader = await server.apiKeyClient(o, ['read:webhooks']);
    const q = `?entityId=${o.entityId}`;
    expect((await reader.get(`${W}${q}`)).body.map((s: any) => s.id)).toEqual([sub.id]);
    const denied = await reader.post(`${W}${q}`, { url: receiver.url, events: ['*'] });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('API key lacks the write:webhooks scope');
    const writer = await server.apiKeyClient(o, ['write:webhooks']);
    expect((await writer.post(W, { entityId: o.entityId, url: receiver.url, events: ['*'] })).status).toBe(201);
    expect((await writer.get(`${W}${q}`)).status).toBe(403);
    expect((await reader.get(`${W}?entityId=${owner.entityId}`)).status).toBe(403);

    expect((await owner.get(`${W}/${sub.id}`)).status).toBe(404);
    expect((await owner.put(W, { subscriptionId: sub.id, enabled: false })).status).toBe(404);
    expect((await owner.delete(W, { subscriptionId: sub.id })).status).toBe(404);
    expect((await owner.get(`${W}/${sub.id}/deliveries`)).status).toBe(404);
    expect((await owner.get(W)).body.map((s: any) => s.id)).not.toContain(sub.id);

    const viewer = await addMemberClient(server, o, 'viewer');
    expect((await viewer.get(W)).status).toBe(200);
    expect((await viewer.post(W, { url: receiver.url, events: ['*'] })).status).toBe(403);
    const member = await addMemberClient(server, o, 'member');
    expect((await member.post(W, { url: receiver.url, events: ['*'] })).body.error).toContain('WEBHOOKS.MANAGE');
  });
});

describe('delivery', () => {
  it('delivers matching events signed per Standard Webhooks and logs the attempt', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    const before = receiver.received.length;
    const t = (await o.post('/api/helpdesk/tickets', { subject: 'Hook me' })).body;
    await o.patch(`/api/helpdesk/tickets/${t.id}`, { priority: 'high' }); // ticket.updated: not subscribed
    await pump();
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const [req] = got;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(sub.secret).verify(req.body, req.headers) as any;
    expect(payload).toMatchObject({ type: 'ticket.created', timestamp: expect.any(String), data: { ticket: { id: t.id, subject: 'Hook me', ticketNumber: t.ticketNumber } } });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(req.body, req.headers)).toThrow();

    const log = await o.get(`${W}/${sub.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({ eventId: req.headers['webhook-id'], eventType: 'ticket.created', status: 'succeeded', attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null, payload });
    expect(log.body[0].attempts).toEqual([expect.objectContaining({ attempt: 1, trigger: 'automatic', statusCode: 200, success: true, responseExcerpt: 'ok', durationMs: expect.any(Number) })]);
    await pump();
    expect(receiver.received.length).toBe(before + 1);
  });

  it('sends "*" every event, skips paused endpoints and events from before the subscription existed', async () => {
    const o = await server.signup();
    await o.post('/api/helpdesk/tickets', { subject: 'before' });
    const all = (await o.post(W, { url: receiver.url, events: ['*'] })).body;
    const paused = (await o.post(W, { url: receiver.url, events: ['*'], enabled: false })).body;
    const t = (await o.post('/api/helpdesk/tickets', { subject: 'after' })).body;
    await o.post(`/api/helpdesk/tickets/${t.id}/messages`, { body: 'hi' });
    await pump();
    const types = (await o.get(`${W}/${all.id}/deliveries`)).body.map((d: any) => d.eventType).sort();
    expect(types).toEqual(['ticket.created', 'ticket.message.created', 'ticket.status_changed'].sort());
    expect((await o.get(`${W}/${paused.id}/deliveries`)).body).toEqual([]);
  });

  it('retries on failure with backoff, honours Retry-After, keeps the webhook-id, and succeeds', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    receiver.reply({ status: 500, body: 'boom' }, { status: 429, headers: { 'retry-after': '3600' } });
    const before = receiver.received.length;
    await o.post('/api/helpdesk/tickets', { subject: 'flaky' });
    await pump();
    let [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d).toMatchObject({ status: 'pending', attemptCount: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
    expect(d.attempts[0]).toMatchObject({ success: false, responseExcerpt: 'boom' });
    const wait1 = Date.parse(d.nextAttemptAt) - clock.ms;
    expect(wait1).toBeGreaterThanOrEqual(4_500);
    expect(wait1).toBeLessThanOrEqual(5_500);
    const sub1 = (await o.get(`${W}/${sub.id}`)).body;
    expect(sub1.failingSince).toEqual(expect.any(String));

    await pump(); // not due yet
    expect(receiver.received.length).toBe(before + 1);
    clock.advance(6_000);
    await pump();
    [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d).toMatchObject({ status: 'pending', attemptCount: 2, lastStatusCode: 429 });
    const wait2 = Date.parse(d.nextAttemptAt) - clock.ms;
    expect(wait2).toBe(3_600_000); // Retry-After beats the 5-minute step

    clock.advance(3_600_000);
    await pump();
    [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d).toMatchObject({ status: 'succeeded', attemptCount: 3, nextAttemptAt: null });
    expect(d.attempts.map((a: any) => a.statusCode)).toEqual([500, 429, 200]);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.eventId]));
    const wh = new Webhook(sub.secret);
    for (const r of got) {
      expect(r.body).toBe(got[0].body);
      const ts = new Date(Number(r.headers['webhook-timestamp']) * 1000);
      expect(wh.sign(r.headers['webhook-id'], ts, r.body)).toBe(r.headers['webhook-signature']);
    }
    expect((await o.get(`${W}/${sub.id}`)).body.failingSince).toBeNull();
  });

  it('gives up after 8 attempts on Svix’s schedule and can be retried by hand', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    receiver.always({ status: 503 });
    try {
      await o.post('/api/helpdesk/tickets', { subject: 'doomed' });
      await pump();
      const waits: number[] = [];
      for (;;) {
        const [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
        if (d.status !== 'pending') break;
        const wait = Date.parse(d.nextAttemptAt) - clock.ms;
        waits.push(wait);
        clock.advance(wait);
        await pump();
      }
      const bases = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
      expect(waits).toHaveLength(7);
      waits.forEach((w, i) => {
        expect(w).toBeGreaterThanOrEqual(bases[i] * 0.9 - 1);
        expect(w).toBeLessThanOrEqual(bases[i] * 1.1 + 1);
      });
      const [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
      expect(d).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
      expect((await o.get(`${W}/${sub.id}`)).body.enabled).toBe(true); // ~28 h of failure is not 5 days
    } finally {
      receiver.always({ status: 200, body: 'ok' });
    }
    const [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    const retried = await o.post(`${W}/${sub.id}/deliveries/${d.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'succeeded', attemptCount: 9 });
    expect(retried.body.attempts.at(-1)).toMatchObject({ trigger: 'manual', statusCode: 200, success: true });
    expect((await o.post(`${W}/${sub.id}/deliveries/00000000-0000-7000-8000-000000000000/retry`)).status).toBe(404);
    const other = await server.signup();
    expect((await other.post(`${W}/${sub.id}/deliveries/${d.id}/retry`)).status).toBe(404);
  });

  it('disables the endpoint on 410 Gone, fails what is queued, and notifies owners and admins', async () => {
    const o = await server.signup();
    const admin = await addMemberClient(server, o, 'admin');
    const member = await addMemberClient(server, o, 'member');
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    receiver.reply({ status: 410 });
    const before = receiver.received.length;
    await o.post('/api/helpdesk/tickets', { subject: 'gone' });
    await pump();
    const s = (await o.get(`${W}/${sub.id}`)).body;
    expect(s).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    const [d] = (await o.get(`${W}/${sub.id}/deliveries`)).body;
    expect(d).toMatchObject({ status: 'failed', lastStatusCode: 410 });
    await o.post('/api/helpdesk/tickets', { subject: 'after gone' });
    await pump();
    expect(receiver.received.length).toBe(before + 1);
    for (const c of [o, admin]) {
      const [n] = (await c.get('/api/notifications')).body;
      expect(n).toMatchObject({ type: 'webhook.disabled', title: `Webhook disabled: ${receiver.url}`, body: 'The endpoint answered 410 Gone', link: `/settings/webhooks/${sub.id}` });
    }
    expect((await member.get('/api/notifications')).body.filter((n: any) => n.type === 'webhook.disabled')).toEqual([]);
    const retry = await o.post(`${W}/${sub.id}/deliveries/${d.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatch(/disabled/);
  });

  it('disables an endpoint that has failed for 5 days without a success', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    receiver.always({ status: 500 });
    try {
      await o.post('/api/helpdesk/tickets', { subject: 'day 0' });
      await pump();
      clock.advance(3 * 86_400_000);
      await o.post('/api/helpdesk/tickets', { subject: 'day 3' });
      await pump();
      expect((await o.get(`${W}/${sub.id}`)).body.enabled).toBe(true);
      clock.advance(2 * 86_400_000);
      await o.post('/api/helpdesk/tickets', { subject: 'day 5' });
      await pump();
    } finally {
      receiver.always({ status: 200, body: 'ok' });
    }
    const s = (await o.get(`${W}/${sub.id}`)).body;
    expect(s.enabled).toBe(false);
    expect(s.disabledReason).toMatch(/5 days/);
    const statuses = (await o.get(`${W}/${sub.id}/deliveries`)).body.map((d: any) => d.status);
    expect(statuses).toEqual(['failed', 'failed', 'failed']);
    const re = await o.put(W, { subscriptionId: sub.id, enabled: true });
    expect(re.body).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });
});

describe('test events', () => {
  it('sends a signed webhook.test to one endpoint whatever it subscribes to, logs it, and never retries it', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    const before = receiver.received.length;
    const res = await o.post(`${W}/${sub.id}/test`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ eventType: 'webhook.test', status: 'succeeded', attemptCount: 1, nextAttemptAt: null, payload: { type: 'webhook.test', data: { subscriptionId: sub.id } } });
    expect(res.body.attempts).toEqual([expect.objectContaining({ attempt: 1, trigger: 'manual', statusCode: 200, success: true })]);
    expect(receiver.received).toHaveLength(before + 1);
    const got = receiver.received.at(-1)!;
    // Signed like every delivery (the test clock runs ahead of real time, so check the signature itself).
    const signedAt = new Date(Number(got.headers['webhook-timestamp']) * 1000);
    expect(got.headers['webhook-signature']).toBe(new Webhook(sub.secret).sign(got.headers['webhook-id'], signedAt, got.body));
    expect(got.headers['webhook-id']).toBe(res.body.eventId);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { subscriptionId: sub.id } });
    expect((await o.get(`${W}/${sub.id}/deliveries`)).body.map((d: any) => d.id)).toContain(res.body.id);

    // A failing test ends failed at once: the delivery loop does not pick it up later.
    receiver.reply({ status: 500, body: 'boom' });
    const failed = await o.post(`${W}/${sub.id}/test`);
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ status: 'failed', attemptCount: 1, lastStatusCode: 500, nextAttemptAt: null });
    const sent = receiver.received.length;
    clock.advance(86_400_000);
    await pump();
    expect(receiver.received).toHaveLength(sent);
    expect((await o.get(`${W}/${sub.id}/deliveries/${failed.body.id}`)).body).toMatchObject({ status: 'failed', attemptCount: 1 });
  });

  it('refuses a disabled endpoint (409), other entities (404), viewers and read-only keys (403)', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['*'] })).body;
    const before = receiver.received.length;
    await o.put(W, { subscriptionId: sub.id, enabled: false });
    const disabled = await o.post(`${W}/${sub.id}/test`);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error).toMatch(/disabled/);
    await o.put(W, { subscriptionId: sub.id, enabled: true });
    expect((await owner.post(`${W}/${sub.id}/test`)).status).toBe(404);
    expect((await o.post(`${W}/00000000-0000-7000-8000-000000000000/test`)).status).toBe(404);
    expect((await o.post(`${W}/not-a-uuid/test`)).status).toBe(400);
    const viewer = await addMemberClient(server, o, 'viewer');
    expect((await viewer.post(`${W}/${sub.id}/test`)).status).toBe(403);
    const reader = await server.apiKeyClient(o, ['read:webhooks']);
    expect((await reader.post(`${W}/${sub.id}/test?entityId=${o.entityId}`)).status).toBe(403);
    expect(receiver.received).toHaveLength(before);
    const writer = await server.apiKeyClient(o, ['write:webhooks']);
    expect((await writer.post(`${W}/${sub.id}/test?entityId=${o.entityId}`)).status).toBe(201);
    expect(receiver.received).toHaveLength(before + 1);
  });
});

describe('retention', () => {
  it('drops finished deliveries after 90 days, keeping those still pending', async () => {
    const o = await server.signup();
    const sub = (await o.post(W, { url: receiver.url, events: ['ticket.created'] })).body;
    await o.post('/api/helpdesk/tickets', { subject: 'old news' });
    await pump();
    const count = () => (server.ctx.sqlite.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id = ?').get(sub.id) as { n: number }).n;
    expect(count()).toBe(1);
    clock.advance(89 * 86_400_000);
    await pump();
    expect(count()).toBe(1);
    clock.advance(2 * 86_400_000);
    await pump();
    expect(count()).toBe(0);
  });
});
