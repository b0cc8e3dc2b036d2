import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMemberClient } from './helpdesk-fixtures.js';

let server: TestServer;
let owner: SessionClient;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ name: 'Olive Owner' });
});
afterAll(() => server.close());

const N = '/api/notifications';

describe('creating and listing', () => {
  it('creates a validated notification and lists it newest first', async () => {
    const res = await owner.post(N, { title: ' Hello ', body: 'World', link: '/helpdesk', type: 'custom.greeting' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      entityId: owner.entityId,
      userId: null,
      type: 'custom.greeting',
      title: 'Hello',
      body: 'World',
      link: '/helpdesk',
      readAt: null,
      createdAt: expect.any(String),
    });
    const second = (await owner.post(N, { title: 'Second' })).body;
    expect(second.type).toBe('message');
    const list = await owner.get(N);
    expect(list.status).toBe(200);
    expect(list.body.slice(0, 2).map((n: any) => n.id)).toEqual([second.id, res.body.id]);
  });

  it.each([
    [{}, 'title: is required'],
    [{ title: ' ' }, 'title: must not be empty'],
    [{ title: 'x'.repeat(201) }, 'title: must be at most 200 characters'],
    [{ title: 'a', type: 'Bad Type' }, 'type: must be lower-case'],
    [{ title: 'a', link: 'javascript:alert(1)' }, 'link: must be an app path'],
    [{ title: 'a', link: '//evil.example' }, 'link: must be an app path'],
    [{ title: 'a', userId: 'nope' }, 'userId: must be a UUID'],
    [{ title: 'a', color: 'red' }, 'Unrecognized key'],
  ])('rejects %j with 400', async (body, message) => {
    const res = await owner.post(N, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('refuses a recipient who is not a member', async () => {
    const stranger = await server.signup();
    const res = await owner.post(N, { title: 'x', userId: stranger.user.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('userId: must be a member of this entity');
  });

  it('defaults to 20, allows up to 100, and rejects bad limits', async () => {
    const c = await server.signup();
    for (let i = 0; i < 23; i++) await c.post(N, { title: `n${i}` });
    expect((await c.get(N)).body).toHaveLength(20);
    expect((await c.get(`${N}?limit=100`)).body).toHaveLength(23);
    expect((await c.get(`${N}?limit=2`)).body.map((n: any) => n.title)).toEqual(['n22', 'n21']);
    for (const q of ['limit=101', 'limit=0', 'limit=x', 'unreadOnly=maybe']) {
      const res = await c.get(`${N}?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });
});

describe('recipients and read state', () => {
  it('shows members their own and entity-wide notifications, with read state per member', async () => {
    const o = await server.signup();
    const b = await addMemberClient(server, o, 'member');
    const forOwner = (await o.post(N, { title: 'for owner', userId: o.user.id })).body;
    const forB = (await o.post(N, { title: 'for b', userId: b.userId })).body;
    const all = (await o.post(N, { title: 'for all' })).body;
    expect((await o.get(N)).body.map((n: any) => n.id)).toEqual([all.id, forOwner.id]);
    expect((await b.get(N)).body.map((n: any) => n.id)).toEqual([all.id, forB.id]);
    expect((await b.get(`${N}/unread-count`)).body).toEqual({ unread: 2 });

    const read = await b.post(`${N}/${all.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.readAt).toEqual(expect.any(String));
    expect((await b.post(`${N}/${all.id}/read`)).body.readAt).toBe(read.body.readAt);
    expect((await b.get(`${N}?unreadOnly=true`)).body.map((n: any) => n.id)).toEqual([forB.id]);
    expect((await o.get(`${N}?unreadOnly=true`)).body.map((n: any) => n.id)).toEqual([all.id, forOwner.id]);

    expect((await b.post(`${N}/${forOwner.id}/read`)).status).toBe(404);
    const allRead = await o.post(`${N}/read-all`);
    expect(allRead.body).toEqual({ updated: 2 });
    expect((await o.get(`${N}/unread-count`)).body).toEqual({ unread: 0 });
    expect((await o.post(`${N}/read-all`)).body).toEqual({ updated: 0 });
    expect((await b.get(`${N}/unread-count`)).body).toEqual({ unread: 1 });
  });

  it("answers 404 for another entity's notification", async () => {
    const other = await server.signup();
    const theirs = (await other.post(N, { title: 'theirs' })).body;
    expect((await owner.post(`${N}/${theirs.id}/read`)).status).toBe(404);
    expect((await owner.get(N)).body.map((n: any) => n.id)).not.toContain(theirs.id);
  });
});

describe('API keys and permissions', () => {
  it('lets keys list the whole entity and create with the right scopes, but not touch read state', async () => {
    const o = await server.signup();
    const b = await addMemberClient(server, o, 'member');
    const forB = (await o.post(N, { title: 'for b', userId: b.userId })).body;
    const reader = await server.apiKeyClient(o, ['read:notifications']);
    const q = `?entityId=${o.entityId}`;
    const list = await reader.get(`${N}${q}`);
    expect(list.status).toBe(200);
    expect(list.body.map((n: any) => n.id)).toContain(forB.id);
    expect((await reader.post(`${N}${q}`, { title: 'x' })).status).toBe(403);
    expect((await reader.post(`${N}/${forB.id}/read${q}`)).status).toBe(403);
    expect((await reader.post(`${N}/read-all${q}`)).status).toBe(403);
    const writer = await server.apiKeyClient(o, ['write:notifications']);
    const made = await writer.post(`${N}${q}`, { title: 'from integration', userId: b.userId });
    expect(made.status).toBe(201);
    expect((await b.get(N)).body[0].id).toBe(made.body.id);
    const other = await server.signup();
    expect((await reader.get(`${N}?entityId=${other.entityId}`)).status).toBe(403);
    expect((await server.anon.get(`${N}${q}`)).status).toBe(401);
  });

  it('needs NOTIFICATIONS.CREATE to create (viewers cannot)', async () => {
    const viewer = await addMemberClient(server, owner, 'viewer');
    expect((await viewer.get(N)).status).toBe(200);
    const res = await viewer.post(N, { title: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('NOTIFICATIONS.CREATE');
  });
});

describe('notifications from domain events', () => {
  it('tells a member about a ticket assigned to them and a customer reply on it, not about their own doing', async () => {
    const o = await server.signup({ name: 'Boss' });
    const agent = await addMemberClient(server, o, 'member');
    const t = (await o.post('/api/helpdesk/tickets', { subject: 'Broken widget', contactName: 'Carla' })).body;
    await o.patch(`/api/helpdesk/tickets/${t.id}`, { assignedTo: agent.userId });
    server.ctx.events.drain();
    const mine = (await agent.get(N)).body;
    expect(mine[0]).toMatchObject({ userId: agent.userId, type: 'ticket.assigned', title: `Ticket ${t.ticketNumber} was assigned to you`, body: 'Broken widget', link: `/helpdesk/tickets/${t.id}` });

    await o.post(`/api/helpdesk/tickets/${t.id}/messages`, { body: 'Still broken!', authorType: 'customer' });
    await o.post(`/api/helpdesk/tickets/${t.id}/messages`, { body: 'agent reply' });
    server.ctx.events.drain();
    const after = (await agent.get(N)).body;
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ type: 'ticket.customer_reply', body: 'Still broken!', link: `/helpdesk/tickets/${t.id}` });
    expect(after[0].title).toContain('Carla');

    const self = (await o.post('/api/helpdesk/tickets', { subject: 'mine', assignedTo: o.user.id })).body;
    server.ctx.events.drain();
    expect((await o.get(N)).body.map((n: any) => n.link)).not.toContain(`/helpdesk/tickets/${self.id}`);
  });
});

/** Reads server-sent events from a streaming response until `until` matches one. */
async function readEvents(res: Response, until: (e: { event: string; data: any }) => boolean) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: any }[] = [];
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buf += decoder.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event) continue;
      const e = { event, data: data ? JSON.parse(data) : null };
      events.push(e);
      if (until(e)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

describe('live stream (SSE)', () => {
  it('authenticates, sends the unread count, then the notifications this member can see', async () => {
    const o = await server.signup();
    const b = await addMemberClient(server, o, 'member');
    await o.post(N, { title: 'before' });
    const url = `${server.url}${N}/stream?entityId=${o.entityId}`;
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { cookie: o.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const seen = readEvents(res, (e) => e.event === 'notification' && e.data.title === 'for all');
    await o.post(N, { title: 'for b only', userId: b.userId });
    await o.post(N, { title: 'for all' });
    server.ctx.events.drain();
    const events = await seen;
    expect(events[0]).toEqual({ event: 'ready', data: { unread: 1 } });
    expect(events.filter((e) => e.event === 'notification').map((e) => e.data.title)).toEqual(['for all']);
  });

  it('accepts API keys with read:notifications and refuses others', async () => {
    const o = await server.signup();
    const noScope = await server.apiKeyClient(o, ['read:helpdesk']);
    const denied = await fetch(`${server.url}${N}/stream?entityId=${o.entityId}`, { headers: { authorization: `Bearer ${noScope.key}` } });
    expect(denied.status).toBe(403);
    const key = await server.apiKeyClient(o, ['read:notifications']);
    const res = await fetch(`${server.url}${N}/stream?entityId=${o.entityId}`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(res.status).toBe(200);
    const seen = readEvents(res, (e) => e.event === 'notification');
    await o.post(N, { title: 'to a member', userId: o.user.id });
    server.ctx.events.drain();
    const events = await seen;
    expect(events[0]).toEqual({ event: 'ready', data: { unread: null } });
    expect(events[1].data).toMatchObject({ title: 'to a member', entityId: o.entityId });
  });
});

describe('OpenAPI', () => {
  it('documents the notification routes, the stream and the record', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    expect(doc.paths['/api/notifications'].get).toBeDefined();
    expect(doc.paths['/api/notifications'].post).toBeDefined();
    expect(doc.paths['/api/notifications/{notificationId}/read'].post).toBeDefined();
    expect(doc.paths['/api/notifications/read-all'].post).toBeDefined();
    expect(doc.paths['/api/notifications/stream'].get.responses['200'].content['text/event-stream']).toBeDefined();
    expect(doc.components.schemas.Notification.required).toEqual(expect.arrayContaining(['userId', 'readAt', 'link']));
  });
});
