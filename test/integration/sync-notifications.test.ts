// Notifications across machines: Dana (owner) on her desktop, Lee (a member) on her laptop and
// her desktop, one hosted instance. A notification is raised once, where the change began, and
// reaches its person on all of her devices; reading it on one marks it read on all; the e-mail
// goes out once, as she chose per kind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { notify } from '../../server/notifications/notifications.js';
import { makeClient, startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';

let hosted: RunningHosted;
let dana: TestServer;
let leeLaptop: TestServer;
let leeDesktop: TestServer;
let owner: SessionClient;
let lee: Client;
let lee2: Client;
let leeId: string;
let leeCookie: string;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-notify-'));

const run = (c: Client, entityId: string) => c.post('/api/sync/run', { entityId });
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0];
const mails = (s: TestServer, to: string) => (s.ctx.sqlite.prepare('select subject, ref from mail_outbox where "to" = ?').all(to) as { subject: string; ref: string }[]).map((m) => ({ subject: m.subject, ref: JSON.parse(m.ref) }));
// Background loops are off in tests: the outbox (where notifications are raised) is drained by hand.
const drain = () => [dana, leeLaptop, leeDesktop].forEach((s) => s.ctx.events.drain());
const syncAll = async () => {
  drain();
  for (const c of [owner, lee, lee2, owner, lee, lee2]) await run(c, owner.entityId);
};

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
  dana = await startTestServer();
  leeLaptop = await startTestServer();
  leeDesktop = await startTestServer();
  owner = await dana.signup({ name: 'Dana Owner', entityName: 'Acme Ltd' });
  expect((await owner.post('/api/sync/link', { hostedUrl: hosted.url, email: owner.email, password: owner.password })).status).toBe(201);
  const added = await owner.post(`/api/entities/${owner.entityId}/members`, { email: 'lee@example.com', role: 'member', name: 'Lee Agent' });
  leeId = added.body.member.userId;
  const invite = await owner.post('/api/sync/invitations', { userId: leeId });
  const joined = await leeLaptop.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: invite.body.code, email: 'lee@example.com', password: 'lee own password', name: 'Lee Agent' });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  leeCookie = cookieOf(joined);
  lee = makeClient(leeLaptop.url, { cookie: leeCookie, origin: leeLaptop.url, 'x-entity-id': owner.entityId });
  // Lee's second device: an add-device code (made by an owner) redeemed with Lee's own account.
  const code = await owner.post('/api/sync/devices/code', {});
  const joined2 = await leeDesktop.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email: 'lee@example.com', password: 'lee own password' });
  expect(joined2.status, JSON.stringify(joined2.body)).toBe(201);
  lee2 = makeClient(leeDesktop.url, { cookie: cookieOf(joined2), origin: leeDesktop.url, 'x-entity-id': owner.entityId });
}, 180_000);

afterAll(async () => {
  await Promise.all([dana?.close(), leeLaptop?.close(), leeDesktop?.close()]);
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

describe('a notification reaches its person on all her devices', () => {
  let ticketId: string;
  let notificationId: string;

  it('a ticket assigned to Lee on Dana’s device shows as Lee’s notification on both of Lee’s devices, raised once', async () => {
    const t = await owner.post('/api/helpdesk/tickets', { subject: 'Printer on fire', assignedTo: leeId });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    drain();
    ticketId = t.body.id;
    await syncAll();
    for (const c of [lee, lee2]) {
      const list = (await c.get('/api/notifications')).body as { id: string; type: string; title: string; userId: string; readAt: string | null }[];
      const mine = list.filter((n) => n.type === 'ticket.assigned');
      expect(mine, JSON.stringify(list)).toHaveLength(1);
      expect(mine[0]).toMatchObject({ userId: leeId, readAt: null, title: `Ticket ${t.body.ticketNumber} was assigned to you` });
      notificationId = mine[0].id;
      expect((await c.get('/api/notifications/unread-count')).body.unread).toBe(1);
    }
    // Raised once (on Dana's device), not again by the devices that received it.
    const raised = (s: TestServer) => (s.ctx.sqlite.prepare("select count(*) as n from outbox where type = 'notification.created'").get() as { n: number }).n;
    expect(raised(leeLaptop)).toBe(0);
    expect(raised(leeDesktop)).toBe(0);
    // Dana does not see Lee's personal notification.
    expect(((await owner.get('/api/notifications')).body as { type: string }[]).filter((n) => n.type === 'ticket.assigned')).toEqual([]);
  });

  it('the e-mail for it goes out once, from Dana’s device, to Lee’s address', async () => {
    expect(mails(dana, 'lee@example.com').filter((m) => m.ref.kind === 'notification')).toEqual([{ subject: expect.stringContaining('was assigned to you'), ref: { kind: 'notification', notificationId, userId: leeId } }]);
    expect(mails(leeLaptop, 'lee@example.com')).toEqual([]);
    expect(mails(leeDesktop, 'lee@example.com')).toEqual([]);
  });

  it('read on her laptop is read on her desktop; mark-all-read too', async () => {
    expect((await lee.post(`/api/notifications/${notificationId}/read`)).status).toBe(200);
    await syncAll();
    const onDesktop = ((await lee2.get('/api/notifications')).body as { id: string; readAt: string | null }[]).find((n) => n.id === notificationId)!;
    expect(onDesktop.readAt).not.toBeNull();
    expect((await lee2.get('/api/notifications/unread-count')).body.unread).toBe(0);

    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { assignedTo: null });
    await owner.patch(`/api/helpdesk/tickets/${ticketId}`, { assignedTo: leeId });
    await syncAll();
    expect((await lee.get('/api/notifications/unread-count')).body.unread).toBe(1);
    expect((await lee2.post('/api/notifications/read-all')).body.updated).toBe(1);
    await syncAll();
    expect((await lee.get('/api/notifications/unread-count')).body.unread).toBe(0);
  });

  it('a notification arriving by sync is announced live on the open stream of Lee’s device', async () => {
    const stream = await openStream(leeLaptop, leeCookie);
    try {
      await stream.next('ready');
      await owner.post('/api/helpdesk/tickets', { subject: 'Second fire', assignedTo: leeId });
      drain();
      await run(owner, owner.entityId);
      await run(lee, owner.entityId);
      const n = await stream.next('notification');
      expect(n).toMatchObject({ type: 'ticket.assigned', userId: leeId, title: expect.stringContaining('was assigned to you') });
      await run(lee2, owner.entityId);
      expect((await lee2.post('/api/notifications/read-all')).body.updated).toBe(1);
      await run(lee2, owner.entityId);
      await run(lee, owner.entityId);
      expect(await stream.next('unread')).toEqual({ unread: 0 });
    } finally {
      stream.close();
    }
  });
});

describe('one of a kind', () => {
  it('a notification two devices could both raise (by its key) is raised once: the second device finds it and sends nothing', async () => {
    const raise = (s: TestServer) =>
      s.ctx.db.transaction((tx) => notify(s.ctx, tx, { entityId: owner.entityId, userId: leeId, type: 'signature_request.completed', title: 'Signed by everyone: NDA', key: 'request-1' }));
    const first = raise(dana);
    await syncAll();
    const outbox = (s: TestServer) => (s.ctx.sqlite.prepare("select count(*) as n from outbox where type = 'notification.created'").get() as { n: number }).n;
    const before = { events: outbox(leeLaptop), mails: mails(leeLaptop, 'lee@example.com').length };
    const second = raise(leeLaptop);
    expect(second.id).toBe(first.id);
    expect(outbox(leeLaptop)).toBe(before.events);
    expect(mails(leeLaptop, 'lee@example.com')).toHaveLength(before.mails);
    expect(mails(dana, 'lee@example.com').filter((m) => m.ref.notificationId === first.id)).toHaveLength(1);
    expect(((await lee2.get('/api/notifications')).body as { id: string }[]).filter((n) => n.id === first.id)).toHaveLength(1);
  });
});

describe('e-mail preferences per kind', () => {
  it('lists every kind with its default; Lee turns assignment e-mails off on one device and the other knows', async () => {
    const list = await lee.get('/api/notifications/email-preferences');
    expect(list.status).toBe(200);
    expect(list.body.find((p: { kind: string }) => p.kind === 'ticket.assigned')).toMatchObject({ email: true, emailByDefault: true });
    expect(list.body.find((p: { kind: string }) => p.kind === 'sync.changes_undone')).toMatchObject({ email: false });
    const put = await lee.put('/api/notifications/email-preferences', { preferences: { 'ticket.assigned': false } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.find((p: { kind: string }) => p.kind === 'ticket.assigned').email).toBe(false);
    await syncAll();
    expect((await lee2.get('/api/notifications/email-preferences')).body.find((p: { kind: string }) => p.kind === 'ticket.assigned').email).toBe(false);

    const before = mails(dana, 'lee@example.com').length;
    await owner.post('/api/helpdesk/tickets', { subject: 'Quiet fire', assignedTo: leeId });
    drain();
    expect(mails(dana, 'lee@example.com')).toHaveLength(before);
    // Dana's own preferences are hers: still on.
    expect((await owner.get('/api/notifications/email-preferences')).body.find((p: { kind: string }) => p.kind === 'ticket.assigned').email).toBe(true);
  });

  it.each([
    [{ preferences: { 'no.such.kind': true } }, 'unknown kind'],
    [{ preferences: { 'ticket.assigned': 'yes' } }, 'must be true or false'],
    [{}, 'preferences'],
    [{ preferences: {}, extra: 1 }, 'Unrecognized key'],
  ])('refuses %j with 400 and changes nothing', async (body, message) => {
    const res = await lee.put('/api/notifications/email-preferences', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await lee.get('/api/notifications/email-preferences')).body.find((p: { kind: string }) => p.kind === 'ticket.assigned').email).toBe(false);
  });

  it('needs a signed-in member', async () => {
    expect((await dana.anon.get(`/api/notifications/email-preferences?entityId=${owner.entityId}`)).status).toBe(401);
  });
});

describe('the ticket-number prefix', () => {
  it('only an owner sets it: a member is refused with 403 and nothing changes', async () => {
    const res = await lee.put('/api/helpdesk/ticket-numbering', { prefix: 'LEE' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBeTruthy();
    expect((await lee.get('/api/helpdesk/ticket-numbering')).body).toEqual({ prefix: 'ACME', chosen: false, assignedBy: 'hosted' });
  });
});

/** An SSE reader over fetch, with the client's cookie. */
async function openStream(server: TestServer, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/notifications/stream?entityId=${owner.entityId}`, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { event: string; data: unknown }[] = [];
  return {
    async next(event: string): Promise<unknown> {
      for (;;) {
        const i = events.findIndex((e) => e.event === event);
        if (i >= 0) return events.splice(0, i + 1).at(-1)!.data;
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${event}`);
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ event: name, data: JSON.parse(data) });
        }
      }
    },
    close: () => controller.abort(),
  };
}
