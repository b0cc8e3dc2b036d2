// Full-text search of documents (names and PDF text) and ledger events (`q` on their lists), and the
// top bar's GET /api/search: grouped by area, scoped to the entity, its folder grants and permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';
import { addMember, uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
const docs: Record<string, string> = {};
const events: Record<string, string> = {};
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

async function post(c: SessionClient, type: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await c.post('/api/ledger/events', { type, payload, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The PDF's text is read by a worker after the upload: the list finds it a moment later. */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 120; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`never: ${what}`);
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ name: 'Olive Owner' });
  other = await server.signup({ name: 'Otto Other' });
  docs.lease = (await uploadPdf(owner, { name: 'Warehouse lease.pdf', data: await makePdf(2, undefined, 'Zanzibar quokka tenancy') })).body.id;
  docs.nda = (await uploadPdf(owner, { name: 'Mutual NDA.pdf' })).body.id;
  docs.foreign = (await uploadPdf(other, { name: 'Warehouse plans.pdf', data: await makePdf(1, undefined, 'Zanzibar quokka blueprint') })).body.id;
  events.invoice = await post(owner, 'invoice_created', { invoiceNumber: 'INV-7781', customerName: 'Bellwether Bakery', currency: 'USD', netAmount: '120.00' });
  events.expense = await post(owner, 'expense_recorded', { description: 'Espresso machine descaling', merchant: 'Kaffeewerk GmbH', currency: 'EUR', netAmount: '45.00' });
  events.refund = await post(owner, 'refund_issued', { reference: 'RF-0042', customerName: 'Bellwether Bakery', currency: 'USD', netAmount: '20.00' }, { correlationId: 'order-991' });
  events.foreign = await post(other, 'invoice_created', { invoiceNumber: 'INV-9000', customerName: 'Bellwether Bakery', currency: 'USD', netAmount: '5.00' });
  const ticket = (await owner.post('/api/helpdesk/tickets', { subject: 'Bellwether oven broken', description: 'Needs a technician' })).body;
  await owner.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'The quokka technician arrives Tuesday' });
});
afterAll(() => server.close());

describe('documents: q on the list', () => {
  it("finds a document by words of its PDF's text, read after the upload, and by its name", async () => {
    await eventually(async () => ids((await owner.get('/api/documents?q=quokka')).body).length === 1, 'the PDF text is indexed');
    expect(ids((await owner.get('/api/documents?q=quokka')).body)).toEqual([docs.lease]);
    expect(ids((await owner.get('/api/documents?q=zanzibar%20tenancy')).body)).toEqual([docs.lease]);
    expect(ids((await owner.get('/api/documents?q=warehouse')).body)).toEqual([docs.lease]);
    expect(ids((await owner.get('/api/documents?q=mutual')).body)).toEqual([docs.nda]);
    expect(ids((await owner.get('/api/documents?q=quokka%20mutual')).body)).toEqual([]);
    // The name's index follows a rename.
    await owner.patch(`/api/documents/${docs.nda}`, { name: 'Confidentiality agreement.pdf' });
    expect(ids((await owner.get('/api/documents?q=mutual')).body)).toEqual([]);
    expect(ids((await owner.get('/api/documents?q=confidential')).body)).toEqual([docs.nda]);
  });

  it("never shows another entity's documents", async () => {
    await eventually(async () => ids((await other.get('/api/documents?q=blueprint')).body).length === 1, "the other entity's PDF text is indexed");
    expect(ids((await owner.get('/api/documents?q=blueprint')).body)).toEqual([]);
    expect(ids((await other.get('/api/documents?q=quokka')).body)).toEqual([docs.foreign]);
  });

  it('respects folder grants', async () => {
    const member = await addMember(server, owner, 'member');
    const hr = (await owner.post('/api/documents/folders', { name: 'HR' })).body;
    const secret = (await uploadPdf(owner, { folderId: hr.id, name: 'Salaries quokka.pdf' })).body.id;
    expect(ids((await member.get('/api/documents?q=salaries')).body)).toEqual([secret]);
    const admin = await addMember(server, owner, 'admin');
    await owner.post(`/api/documents/folders/${hr.id}/grants`, { userId: admin.user.id, level: 'view' });
    expect(ids((await member.get('/api/documents?q=salaries')).body)).toEqual([]);
    const groups = (await member.get('/api/search?q=salaries')).body.groups;
    expect(groups.find((g: { area: string }) => g.area === 'documents').hits).toEqual([]);
    const ownerHits = (await owner.get('/api/search?q=salaries')).body.groups.find((g: { area: string }) => g.area === 'documents').hits;
    expect(ids(ownerHits)).toEqual([secret]);
  });

  it('refuses a q over 200 characters; text with no word finds nothing', async () => {
    expect((await owner.get(`/api/documents?q=${'x'.repeat(201)}`)).status).toBe(400);
    expect((await owner.get(`/api/documents?q=${encodeURIComponent('"*')}`)).body).toEqual([]);
  });
});

describe('ledger events: q on the list', () => {
  const found = async (c: SessionClient, q: string) => {
    const res = await c.get(`/api/ledger/events?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return ids(res.body.events);
  };

  it('finds events by counterparty, description, number, reference and correlation id', async () => {
    expect(await found(owner, 'bellwether')).toEqual([events.refund, events.invoice]);
    expect(await found(owner, 'kaffeewerk')).toEqual([events.expense]);
    expect(await found(owner, 'descaling')).toEqual([events.expense]);
    expect(await found(owner, 'INV-7781')).toEqual([events.invoice]);
    expect(await found(owner, 'RF-0042')).toEqual([events.refund]);
    expect(await found(owner, 'order-991')).toEqual([events.refund]);
    expect(await found(owner, 'bellwether refund')).toEqual([events.refund]);
  });

  it("combines with the other filters and the counts, and never shows another entity's events", async () => {
    expect((await owner.get('/api/ledger/events?q=bellwether&type=invoice_created')).body.events.map((e: { id: string }) => e.id)).toEqual([events.invoice]);
    expect((await owner.get('/api/ledger/events?q=bellwether')).body.total).toBe(2);
    expect((await owner.get('/api/ledger/events?q=bellwether&view=statusCounts')).body.total).toBe(2);
    expect(await found(owner, 'INV-9000')).toEqual([]);
    expect(await found(other, 'bellwether')).toEqual([events.foreign]);
    expect((await owner.get(`/api/ledger/events?q=${'x'.repeat(201)}`)).status).toBe(400);
  });
});

describe('GET /api/search (the top bar)', () => {
  type Group = { area: string; hits: { id: string; title: string; snippet: { text: string; match: boolean }[] }[]; more: boolean };
  const groupsOf = async (c: SessionClient, q: string, limit?: number) => {
    const res = await c.get(`/api/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`);
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body.groups as Group[]).map((g) => [g.area, g])) as Record<string, Group>;
  };

  it('answers every area, grouped, with what matched', async () => {
    await eventually(async () => ids((await owner.get('/api/documents?q=tenancy')).body).length === 1, 'the PDF text is indexed');
    const g = await groupsOf(owner, 'quokka');
    expect(Object.keys(g)).toEqual(['tickets', 'documents', 'ledgerEvents']);
    // The ticket is found by its message; the snippet shows the message's words.
    expect(g.tickets.hits).toHaveLength(1);
    expect(g.tickets.hits[0].title).toBe('Bellwether oven broken');
    expect(g.tickets.hits[0].snippet.filter((p) => p.match).map((p) => p.text)).toEqual(['quokka']);
    expect(g.tickets.hits[0].snippet.map((p) => p.text).join('')).toMatch(/quokka/);
    expect(ids(g.documents.hits)).toContain(docs.lease);
    const lease = g.documents.hits.find((h) => h.id === docs.lease)!;
    expect(lease.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())).toContain('quokka');
    const b = await groupsOf(owner, 'bellwether');
    expect(ids(b.ledgerEvents.hits).sort()).toEqual([events.invoice, events.refund].sort());
    expect(b.ledgerEvents.hits.find((h) => h.id === events.invoice)!.title).toBe('Invoice INV-7781 to Bellwether Bakery');
    expect(ids(b.tickets.hits)).toHaveLength(1);
  });

  it('limits each group and says there are more', async () => {
    const g = await groupsOf(owner, 'bellwether', 1);
    expect(g.ledgerEvents.hits).toHaveLength(1);
    expect(g.ledgerEvents.more).toBe(true);
    expect(g.tickets.more).toBe(false);
  });

  it("never shows another entity's rows", async () => {
    const g = await groupsOf(other, 'bellwether');
    expect(ids(g.ledgerEvents.hits)).toEqual([events.foreign]);
    expect(g.tickets.hits).toEqual([]);
    const o = await groupsOf(owner, 'blueprint');
    expect(o.documents.hits).toEqual([]);
    // Naming the other entity is refused, not answered with its rows.
    expect((await owner.get(`/api/search?q=bellwether&entityId=${other.entityId}`, { headers: { 'x-entity-id': other.entityId } })).status).toBe(403);
  });

  it('leaves out the areas the caller may not read', async () => {
    const key = await server.apiKeyClient(owner, ['read:documents']);
    const res = await key.get(`/api/search?q=bellwether&entityId=${owner.entityId}`);
    expect(res.status).toBe(200);
    expect(res.body.groups.map((g: Group) => g.area)).toEqual(['documents']);
    const ledger = await server.apiKeyClient(owner, ['read:ledger', 'write:helpdesk']);
    expect((await ledger.get(`/api/search?q=bellwether&entityId=${owner.entityId}`)).body.groups.map((g: Group) => g.area)).toEqual(['ledgerEvents']);
    const none = await server.apiKeyClient(owner, ['write:ledger']);
    expect((await none.get(`/api/search?q=bellwether&entityId=${owner.entityId}`)).status).toBe(403);
    expect((await server.anon.get(`/api/search?q=bellwether&entityId=${owner.entityId}`)).status).toBe(401);
  });

  it('refuses bad input with 400 and an error', async () => {
    for (const q of ['', '   ', '"*', 'x'.repeat(201)]) {
      const res = await owner.get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await owner.get('/api/search')).status).toBe(400);
    for (const limit of ['0', '21', 'abc', '1.5']) expect((await owner.get(`/api/search?q=a&limit=${limit}`)).status).toBe(400);
    // FTS operators are plain words.
    for (const q of ['NEAR(a b)', 'body:x', 'a OR b', 'a*', '-a']) expect((await owner.get(`/api/search?q=${encodeURIComponent(q)}`)).status).toBe(200);
  });
});
