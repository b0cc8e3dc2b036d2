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

const T = '/api/helpdesk/tickets';
const create = (c: SessionClient, body: Record<string, unknown>) => c.post(T, body);

describe('creating tickets', () => {
  it('creates a ticket with every field and sensible defaults', async () => {
    const res = await create(owner, { subject: '  Printer on fire  ', description: 'Smoke everywhere', contactEmail: 'Ann@Example.com', contactName: 'Ann' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      entityId: owner.entityId,
      subject: 'Printer on fire',
      description: 'Smoke everywhere',
      status: 'new',
      priority: 'normal',
      channel: 'api',
      contactEmail: 'ann@example.com',
      contactName: 'Ann',
      categoryId: null,
      createdBy: owner.user.id,
      assignedTo: null,
      firstResponseAt: null,
      resolvedAt: null,
      closedAt: null,
    });
    // One series per business, with a prefix from its name (not linked: counted on this install, final at once).
    expect(res.body.ticketNumber).toMatch(/^[A-Z][A-Z0-9]{1,5}-\d+$/);
    expect(res.body.numberProvisional).toBe(false);
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    const one = await owner.get(`${T}/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.messages).toEqual([expect.objectContaining({ authorType: 'system', isInternal: true, body: expect.stringContaining(res.body.ticketNumber) })]);
  });

  it('numbers tickets uniquely and in order within the entity, from one installation node', async () => {
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) numbers.push((await create(owner, { subject: `n${i}` })).body.ticketNumber);
    expect(new Set(numbers).size).toBe(3);
    const [node] = numbers[0].split('-');
    expect(numbers.every((n) => n.startsWith(`${node}-`))).toBe(true);
    const seqs = numbers.map((n) => Number(n.split('-')[1]));
    expect(seqs[1]).toBe(seqs[0] + 1);
    expect(seqs[2]).toBe(seqs[1] + 1);
  });

  it('numbers each business in its own series, with a prefix from its name', async () => {
    const elsewhere = await startTestServer();
    try {
      const there = await elsewhere.signup({ entityName: 'Acme Ltd' });
      const a = (await create(owner, { subject: 'here' })).body.ticketNumber as string;
      const b = (await there.post(T, { subject: 'there' })).body;
      expect(b).toMatchObject({ ticketNumber: 'ACME-1001', numberProvisional: false });
      expect(a.split('-')[0]).not.toBe('ACME');
    } finally {
      await elsewhere.close();
    }
  });

  it.each([
    [{}, 'subject: is required'],
    [{ subject: '   ' }, 'subject: must not be empty'],
    [{ subject: 'x'.repeat(201) }, 'subject: must be at most 200 characters'],
    [{ subject: 42 }, 'subject: must be a string'],
    [{ subject: 'a', priority: 'critical' }, 'priority: must be one of low, normal, high, urgent'],
    [{ subject: 'a', channel: 'fax' }, 'channel: must be one of email, web, phone, chat, api'],
    [{ subject: 'a', contactEmail: 'not-an-email' }, 'contactEmail: must be a valid e-mail address'],
    [{ subject: 'a', categoryId: 'nope' }, 'categoryId: must be a UUID'],
    [{ subject: 'a', status: 'open' }, 'Unrecognized key: "status"'],
  ])('rejects %j with 400', async (body, message) => {
    const res = await create(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('rejects an assignee who is not a member and a category of another entity', async () => {
    const stranger = await server.signup();
    const a = await create(owner, { subject: 'a', assignedTo: stranger.user.id });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe('assignedTo: must be a member of this entity');
    const cat = await stranger.post('/api/helpdesk/categories', { name: 'Theirs' });
    const c = await create(owner, { subject: 'a', categoryId: cat.body.id });
    expect(c.status).toBe(400);
    expect(c.body.error).toBe('categoryId: must be a category of this entity');
  });

  it('accepts every channel and priority value', async () => {
    for (const channel of ['email', 'web', 'phone', 'chat', 'api']) expect((await create(owner, { subject: channel, channel })).body.channel).toBe(channel);
    for (const priority of ['low', 'normal', 'high', 'urgent']) expect((await create(owner, { subject: priority, priority })).body.priority).toBe(priority);
  });
});

describe('status lifecycle', () => {
  const patch = (id: string, body: Record<string, unknown>) => owner.patch(`${T}/${id}`, body);

  it('walks new → open → pending → open → resolved → closed, setting and clearing timestamps', async () => {
    const t = (await create(owner, { subject: 'lifecycle' })).body;
    expect((await patch(t.id, { status: 'open' })).body.status).toBe('open');
    expect((await patch(t.id, { status: 'pending' })).body.status).toBe('pending');
    expect((await patch(t.id, { status: 'open' })).body.status).toBe('open');
    const resolved = (await patch(t.id, { status: 'resolved' })).body;
    expect(resolved.resolvedAt).toEqual(expect.any(String));
    expect(resolved.closedAt).toBeNull();
    const reopened = (await patch(t.id, { status: 'open' })).body;
    expect(reopened.resolvedAt).toBeNull();
    await patch(t.id, { status: 'resolved' });
    const closed = (await patch(t.id, { status: 'closed' })).body;
    expect(closed.closedAt).toEqual(expect.any(String));
    expect(closed.resolvedAt).toEqual(expect.any(String));
    const timeline = (await owner.get(`${T}/${t.id}`)).body.messages.filter((m: any) => m.authorType === 'system').map((m: any) => m.body);
    expect(timeline).toContain('Status changed from new to open by Olive Owner');
    expect(timeline).toContain('Status changed from resolved to closed by Olive Owner');
  });

  it.each([
    [[], 'closed'],
    [['open'], 'new'],
    [['open'], 'closed'],
    [['pending'], 'closed'],
    [['resolved', 'closed'], 'open'],
    [['resolved', 'closed'], 'resolved'],
  ])('after %j refuses a move to %s with 409', async (path, to) => {
    const t = (await create(owner, { subject: 'bad move' })).body;
    for (const s of path) expect((await patch(t.id, { status: s })).status).toBe(200);
    const res = await patch(t.id, { status: to });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Cannot change ticket status from \w+ to \w+/);
    expect((await owner.get(`${T}/${t.id}`)).body.status).toBe(path.at(-1) ?? 'new');
  });

  it('treats setting the current status as no change, and rejects an empty or unknown update', async () => {
    const t = (await create(owner, { subject: 'same' })).body;
    const same = await patch(t.id, { status: 'new' });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(t.updatedAt);
    expect((await patch(t.id, {})).status).toBe(400);
    expect((await patch(t.id, { status: 'archived' })).body.error).toContain('status: must be one of');
    expect((await patch(t.id, { foo: 1 })).status).toBe(400);
  });

  it('updates fields and keeps search in step with the subject', async () => {
    const t = (await create(owner, { subject: 'Old subject zebra' })).body;
    const res = await patch(t.id, { subject: 'New subject quagga', priority: 'urgent', contactEmail: null, description: 'd' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subject: 'New subject quagga', priority: 'urgent', contactEmail: null, description: 'd' });
    expect((await owner.get(`${T}?search=QUAGGA`)).body.map((x: any) => x.id)).toEqual([t.id]);
    expect((await owner.get(`${T}?search=zebra`)).body).toEqual([]);
  });
});

describe('messages', () => {
  const msg = (id: string, body: Record<string, unknown>) => owner.post(`${T}/${id}/messages`, body);

  it('sets firstResponseAt on the first public agent reply only, and moves new to open', async () => {
    const t = (await create(owner, { subject: 'first response' })).body;
    const note = await msg(t.id, { body: 'internal thought', isInternal: true });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ ticketId: t.id, authorType: 'agent', authorId: owner.user.id, authorName: 'Olive Owner', isInternal: true });
    let now = (await owner.get(`${T}/${t.id}`)).body;
    expect(now.firstResponseAt).toBeNull();
    expect(now.status).toBe('new');
    await msg(t.id, { body: 'Hello, we are on it' });
    now = (await owner.get(`${T}/${t.id}`)).body;
    expect(now.firstResponseAt).toEqual(expect.any(String));
    expect(now.status).toBe('open');
    const first = now.firstResponseAt;
    await msg(t.id, { body: 'Another reply' });
    expect((await owner.get(`${T}/${t.id}`)).body.firstResponseAt).toBe(first);
  });

  it('does not count a customer message as a first response, and reopens pending and resolved tickets', async () => {
    const t = (await create(owner, { subject: 'customer', contactName: 'Carla' })).body;
    const c = await msg(t.id, { body: 'Any news?', authorType: 'customer' });
    expect(c.body).toMatchObject({ authorType: 'customer', authorId: null, authorName: 'Carla', isInternal: false });
    expect((await owner.get(`${T}/${t.id}`)).body).toMatchObject({ status: 'new', firstResponseAt: null });
    for (const from of ['pending', 'resolved']) {
      await owner.patch(`${T}/${t.id}`, { status: from });
      await msg(t.id, { body: `reply while ${from}`, authorType: 'customer', authorName: 'Carla C.' });
      const after = (await owner.get(`${T}/${t.id}`)).body;
      expect(after.status).toBe('open');
      expect(after.resolvedAt).toBeNull();
    }
  });

  it('returns the timeline oldest first with replies, notes and system events', async () => {
    const t = (await create(owner, { subject: 'timeline' })).body;
    await msg(t.id, { body: 'one' });
    await msg(t.id, { body: 'two', isInternal: true });
    const m = (await owner.get(`${T}/${t.id}`)).body.messages;
    const bodies = m.map((x: any) => x.body);
    expect(bodies.indexOf('one')).toBeLessThan(bodies.indexOf('two'));
    expect(m[0].authorType).toBe('system');
    expect(bodies).toContain('Status changed from new to open (reply by Olive Owner)');
    const sorted = [...m].sort((a: any, b: any) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
    expect(m).toEqual(sorted);
  });

  it.each([
    [{}, 'body: is required'],
    [{ body: '  ' }, 'body: must not be empty'],
    [{ body: 'x', authorType: 'system' }, 'authorType: must be agent or customer'],
    [{ body: 'x', authorType: 'customer', isInternal: true }, 'isInternal: A customer message cannot be an internal note'],
    [{ body: 'x', isInternal: 'yes' }, 'isInternal: must be a boolean'],
  ])('rejects message %j with 400', async (body, message) => {
    const t = (await create(owner, { subject: 'bad message' })).body;
    const res = await msg(t.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('refuses messages on a closed ticket with 409', async () => {
    const t = (await create(owner, { subject: 'closed' })).body;
    await owner.patch(`${T}/${t.id}`, { status: 'resolved' });
    await owner.patch(`${T}/${t.id}`, { status: 'closed' });
    const res = await msg(t.id, { body: 'late', authorType: 'customer' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/closed/);
  });
});

describe('listing', () => {
  let lister: SessionClient;
  const ids: string[] = [];
  beforeAll(async () => {
    lister = await server.signup();
    for (const [subject, priority] of [['Alpha login broken', 'high'], ['Beta invoice wrong', 'low'], ['gamma LOGIN slow', 'high'], ['Delta Ünïcode Straße', 'normal']]) {
      ids.push((await lister.post(T, { subject, priority })).body.id);
    }
    await lister.patch(`${T}/${ids[1]}`, { status: 'open' });
  });

  it('lists newest first with a total', async () => {
    const res = await lister.get(T);
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.id)).toEqual([...ids].reverse());
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(res.body[0]).not.toHaveProperty('messages');
  });

  it('filters by status, priority, case-insensitive search on subject, and ticket number', async () => {
    expect((await lister.get(`${T}?status=open`)).body.map((t: any) => t.id)).toEqual([ids[1]]);
    expect((await lister.get(`${T}?priority=high`)).body.map((t: any) => t.id)).toEqual([ids[2], ids[0]]);
    expect((await lister.get(`${T}?search=login`)).body.map((t: any) => t.id)).toEqual([ids[2], ids[0]]);
    expect((await lister.get(`${T}?search=STRASSE`)).body).toEqual([]);
    expect((await lister.get(`${T}?search=straße`)).body.map((t: any) => t.id)).toEqual([ids[3]]);
    expect((await lister.get(`${T}?search=%25`)).body).toEqual([]);
    const number = (await lister.get(`${T}/${ids[1]}`)).body.ticketNumber as string;
    expect((await lister.get(`${T}?search=${number.toLowerCase()}`)).body).toEqual([]);
    expect((await lister.get(`${T}?ticketNumber=${number.toLowerCase()}`)).body.map((t: any) => t.id)).toEqual([ids[1]]);
    expect((await lister.get(`${T}?status=open&priority=high`)).body).toEqual([]);
  });

  it('pages with limit and cursor', async () => {
    const p1 = await lister.get(`${T}?limit=3`);
    expect(p1.body).toHaveLength(3);
    const cursor = p1.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const p2 = await lister.get(`${T}?limit=3&cursor=${cursor}`);
    expect(p2.body.map((t: any) => t.id)).toEqual([ids[0]]);
    expect(p2.headers.get('x-next-cursor')).toBeNull();
  });

  it.each([['status=archived'], ['priority=critical'], ['limit=0'], ['limit=201'], ['limit=abc'], ['cursor=garbage']])('rejects ?%s with 400', async (qs) => {
    const res = await lister.get(`${T}?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });
});

describe('assignment', () => {
  it('assigns to a member, writes the timeline, and unassigns', async () => {
    const agent = await addMemberClient(server, owner, 'member');
    const t = (await create(owner, { subject: 'assign me' })).body;
    const res = await owner.patch(`${T}/${t.id}`, { assignedTo: agent.userId });
    expect(res.status).toBe(200);
    expect(res.body.assignedTo).toBe(agent.userId);
    const un = await owner.patch(`${T}/${t.id}`, { assignedTo: null });
    expect(un.body.assignedTo).toBeNull();
    const bodies = (await owner.get(`${T}/${t.id}`)).body.messages.map((m: any) => m.body);
    expect(bodies).toContain(`Assigned to ${agent.name} by Olive Owner`);
    expect(bodies).toContain(`Unassigned from ${agent.name} by Olive Owner`);
    const bad = await owner.patch(`${T}/${t.id}`, { assignedTo: '00000000-0000-7000-8000-000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('assignedTo: must be a member of this entity');
  });
});

describe('access', () => {
  it("answers 404 for another entity's ticket, whatever the route", async () => {
    const other = await server.signup();
    const theirs = (await other.post(T, { subject: 'secret' })).body;
    expect((await owner.get(`${T}/${theirs.id}`)).status).toBe(404);
    expect((await owner.patch(`${T}/${theirs.id}`, { status: 'open' })).status).toBe(404);
    expect((await owner.post(`${T}/${theirs.id}/messages`, { body: 'x' })).status).toBe(404);
    expect((await owner.get(T)).body.map((t: any) => t.id)).not.toContain(theirs.id);
    expect((await other.get(`${T}/${theirs.id}`)).body.status).toBe('new');
  });

  it('needs a valid entityId, membership and the HELPDESK permissions', async () => {
    const anonRes = await server.anon.get(`${T}?entityId=${owner.entityId}`);
    expect(anonRes.status).toBe(401);
    const noEntity = await owner.get(T, { headers: { 'x-entity-id': '' } });
    expect(noEntity.status).toBe(400);
    expect(noEntity.body.error).toBe('entityId required');
    const outsider = await server.signup();
    expect((await outsider.get(`${T}?entityId=${owner.entityId}`, { headers: { 'x-entity-id': owner.entityId } })).status).toBe(403);
    const viewer = await addMemberClient(server, owner, 'viewer');
    expect((await viewer.get(T)).status).toBe(200);
    const denied = await viewer.post(T, { subject: 'viewer' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toContain('HELPDESK.EDIT');
  });

  it('accepts entityId in the query, the body or x-entity-id, and refuses two different ones', async () => {
    const key = await server.apiKeyClient(owner, ['read:helpdesk', 'write:helpdesk']);
    expect((await key.post(`${T}?entityId=${owner.entityId}`, { subject: 'q' })).status).toBe(201);
    expect((await key.post(T, { subject: 'b', entityId: owner.entityId })).status).toBe(201);
    expect((await key.post(T, { subject: 'h' }, { headers: { 'x-entity-id': owner.entityId } })).status).toBe(201);
    const other = await server.signup();
    expect((await key.post(`${T}?entityId=${owner.entityId}`, { subject: 'x', entityId: other.entityId })).status).toBe(400);
  });

  it('checks API key scopes and the entity the key is pinned to', async () => {
    const reader = await server.apiKeyClient(owner, ['read:helpdesk']);
    expect((await reader.get(`${T}?entityId=${owner.entityId}`)).status).toBe(200);
    const write = await reader.post(`${T}?entityId=${owner.entityId}`, { subject: 'nope' });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('API key lacks the write:helpdesk scope');
    const noScope = await server.apiKeyClient(owner, ['read:documents']);
    expect((await noScope.get(`${T}?entityId=${owner.entityId}`)).status).toBe(403);
    const other = await server.signup();
    const mismatch = await reader.get(`${T}?entityId=${other.entityId}`);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error).toBe('API key is not valid for this entity');
    const writer = await server.apiKeyClient(owner, ['write:helpdesk']);
    const created = await writer.post(`${T}?entityId=${owner.entityId}`, { subject: 'by key' });
    expect(created.status).toBe(201);
    expect(created.body.createdBy).toBeNull();
    const reply = await writer.post(`${T}/${created.body.id}/messages?entityId=${owner.entityId}`, { body: 'from integration' });
    expect(reply.body).toMatchObject({ authorType: 'agent', authorId: null, authorName: expect.stringContaining('API key') });
  });
});

describe('categories', () => {
  const C = '/api/helpdesk/categories';
  it('creates, lists, renames, refuses duplicates and deletes only unused categories', async () => {
    const c = await owner.post(C, { name: 'Billing', description: 'Money' });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ entityId: owner.entityId, name: 'Billing', description: 'Money' });
    const dup = await owner.post(C, { name: 'billing' });
    expect(dup.status).toBe(409);
    expect((await owner.post(C, {})).body.error).toBe('name: is required');
    const tech = (await owner.post(C, { name: 'Technical' })).body;
    expect((await owner.get(C)).body.map((x: any) => x.name)).toEqual(['Billing', 'Technical']);
    expect((await owner.patch(`${C}/${tech.id}`, { name: 'BILLING' })).status).toBe(409);
    expect((await owner.patch(`${C}/${tech.id}`, { name: 'Tech' })).body.name).toBe('Tech');
    const t = (await create(owner, { subject: 'categorised', categoryId: c.body.id })).body;
    expect(t.categoryId).toBe(c.body.id);
    const inUse = await owner.delete(`${C}/${c.body.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatch(/used by 1 ticket/);
    expect((await owner.delete(`${C}/${tech.id}`)).body).toEqual({ deleted: true, id: tech.id });
    expect((await owner.delete(`${C}/${tech.id}`)).status).toBe(404);
  });

  it("hides another entity's categories (404)", async () => {
    const other = await server.signup();
    const theirs = (await other.post(C, { name: 'Theirs' })).body;
    expect((await owner.patch(`${C}/${theirs.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await owner.delete(`${C}/${theirs.id}`)).status).toBe(404);
    expect((await owner.get(C)).body.map((x: any) => x.id)).not.toContain(theirs.id);
  });
});

describe('OpenAPI', () => {
  it('documents the helpdesk routes and the decisions the contract left open', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    for (const [path, method] of [[T, 'get'], [T, 'post'], [`${T}/{ticketId}`, 'get'], [`${T}/{ticketId}`, 'patch'], [`${T}/{ticketId}/messages`, 'post'], ['/api/helpdesk/categories', 'post']]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const text = JSON.stringify(doc);
    expect(text).toContain('Lifecycle modelled on Zammad');
    expect(text).toContain('x-next-cursor');
    expect(doc.components.schemas.Ticket).toBeDefined();
  });
});
