// GET /api/documents/signature-requests pages as the documents list does (opt-in `limit`/`cursor`,
// `x-next-cursor`, `x-total-count`), and `awaitingMe=true` answers Home's "waiting for your
// signature" on the server: requests still out for signature where the caller must act now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { addMember, draftRequest, PNG_DATA_URL, signingToken, uploadPdf } from './documents-helpers.js';

const R = '/api/documents/signature-requests';
let server: TestServer;
let owner: SessionClient;
let member: SessionClient;
let other: SessionClient;
const made: Record<string, string> = {};

const ids = (body: { id: string }[]) => body.map((r) => r.id);

/** Every page of `query` for `client` with page size `limit`, and what each page's headers said. */
async function allPages(client: SessionClient, query: string, limit: number) {
  const seen: string[] = [];
  const totals: (string | null)[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: { status: number; body: { id: string }[]; headers: Headers } = await client.get(`${R}?${query}${query ? '&' : ''}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(limit);
    seen.push(...ids(res.body));
    totals.push(res.headers.get('x-total-count'));
    cursor = res.headers.get('x-next-cursor');
    if (!cursor) return { ids: seen, totals, pages: pages + 1 };
  }
  throw new Error('the cursor never ended');
}

const send = async (client: SessionClient, requestId: string) => expect((await client.patch(`${R}/${requestId}`, { action: 'send' })).status).toBe(200);

async function signAs(requestId: string, signerId: string) {
  const token = await signingToken(owner, requestId, signerId);
  const view = await server.anon.get(`/api/sign/${token}`);
  const fields = view.body.fields.filter((f: { type: string }) => f.type === 'signature').map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
  expect((await server.anon.post(`/api/sign/${token}`, { action: 'sign', fields })).status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
  member = await addMember(server, owner, 'member');
  const me = { name: 'Owner', email: owner.email };
  const colleague = { name: 'Member', email: member.email };
  const stranger = { name: 'Ada', email: 'ada@example.com' };

  // A folder only viewers (and admins) may see: the member sees none of its requests.
  const board = (await owner.post('/api/documents/folders', { name: 'Board' })).body.id;
  expect((await owner.post(`/api/documents/folders/${board}/grants`, { role: 'viewer', level: 'view' })).status).toBe(201);
  const open = (await uploadPdf(owner, { name: 'open.pdf' })).body.id;
  const hidden = (await uploadPdf(owner, { name: 'board.pdf', folderId: board })).body.id;
  for (let i = 0; i < 9; i++) expect((await owner.post(R, { documentId: open, title: `Open draft ${i}` })).status).toBe(201);
  for (let i = 0; i < 2; i++) expect((await owner.post(R, { documentId: hidden, title: `Board draft ${i}` })).status).toBe(201);

  // Both must sign now.
  made.both = (await draftRequest(owner, { signers: [me, colleague] })).requestId;
  await send(owner, made.both);
  // The owner only receives a copy.
  made.cc = (await draftRequest(owner, { signers: [stranger, { ...me, role: 'cc' }] })).requestId;
  await send(owner, made.cc);
  // The owner signs second: not their turn yet.
  made.later = (await draftRequest(owner, { signers: [{ ...stranger, order: 1 }, { ...me, order: 2 }], signingOrder: 'sequential' })).requestId;
  await send(owner, made.later);
  // The owner has signed; Ada has not (the request is still sent).
  const signed = await draftRequest(owner, { signers: [me, stranger] });
  made.signed = signed.requestId;
  await send(owner, made.signed);
  await signAs(made.signed, signed.signers.find((s) => s.email === owner.email)!.id);
  // Not sent yet, and sent then cancelled.
  made.draft = (await draftRequest(owner, { signers: [me] })).requestId;
  made.cancelled = (await draftRequest(owner, { signers: [me] })).requestId;
  await send(owner, made.cancelled);
  expect((await owner.patch(`${R}/${made.cancelled}`, { action: 'cancel' })).status).toBe(200);
  // On a board document: the owner approves, the member signs but may not see it.
  const boardRequest = await draftRequest(owner, { signers: [colleague, { ...me, role: 'approver' }] });
  made.board = boardRequest.requestId;
  expect((await owner.patch(`/api/documents/${boardRequest.documentId}`, { folderId: board })).status).toBe(200);
  await send(owner, made.board);

  // Another entity asks the owner's address to sign: never listed in the owner's entity.
  made.elsewhere = (await draftRequest(other, { signers: [me] })).requestId;
  await send(other, made.elsewhere);
}, 180_000);
afterAll(() => server.close());

describe('GET /api/documents/signature-requests paging', () => {
  it('without limit or cursor answers every request as before, with the count in x-total-count', async () => {
    const res = await owner.get(R);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(18);
    expect(Object.keys(res.body[0]).sort()).toEqual(['completedAt', 'createdAt', 'documentId', 'documentName', 'dueDate', 'id', 'status', 'title']);
    const created = res.body.map((r: { createdAt: string }) => r.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(res.headers.get('x-total-count')).toBe('18');
    expect(res.headers.get('x-next-cursor')).toBeNull();
    expect(ids(res.body)).not.toContain(made.elsewhere);
  });

  it('pages newest first through every request once, in the unpaged order', async () => {
    const everything = ids((await owner.get(R)).body);
    for (const limit of [1, 4, 7]) {
      const paged = await allPages(owner, '', limit);
      expect(paged.ids).toEqual(everything);
      expect(paged.pages).toBe(Math.ceil(18 / limit));
      expect(new Set(paged.totals)).toEqual(new Set(['18']));
    }
  });

  it('keeps the status filter on every page and in the count', async () => {
    const sent = await allPages(owner, 'status=sent', 2);
    expect(new Set(sent.ids)).toEqual(new Set([made.both, made.cc, made.later, made.signed, made.board]));
    expect(sent.ids).toEqual(ids((await owner.get(`${R}?status=sent`)).body));
    expect(new Set(sent.totals)).toEqual(new Set(['5']));
  });

  it('shows a member below admin only the requests whose document they can see, on every page and in the count', async () => {
    const everything = await member.get(R);
    expect(everything.body).toHaveLength(15);
    expect(ids(everything.body)).not.toContain(made.board);
    const paged = await allPages(member, '', 4);
    expect(paged.ids).toEqual(ids(everything.body));
    expect(new Set(paged.totals)).toEqual(new Set(['15']));
  });

  it('never shows another entity’s requests', async () => {
    const theirs = await allPages(other, '', 50);
    expect(theirs.ids).toEqual([made.elsewhere]);
    expect(theirs.totals).toEqual(['1']);
  });

  it('uses the default page size (50) with a cursor alone', async () => {
    const first = await owner.get(`${R}?limit=10`);
    const rest = await owner.get(`${R}?cursor=${encodeURIComponent(first.headers.get('x-next-cursor')!)}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toHaveLength(8);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
    expect(rest.headers.get('x-total-count')).toBe('18');
  });

  it.each([['limit=0'], ['limit=201'], ['limit=abc'], ['limit=1.5'], ['cursor=garbage'], [`cursor=${'a'.repeat(201)}`], ['awaitingMe=maybe'], ['status=lost']])('rejects ?%s with 400 and an error', async (qs) => {
    const res = await owner.get(`${R}?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });
});

describe('awaitingMe', () => {
  it('lists requests out for signature where the caller must act now', async () => {
    const res = await owner.get(`${R}?awaitingMe=true`);
    expect(res.status).toBe(200);
    expect(new Set(ids(res.body))).toEqual(new Set([made.both, made.board]));
    expect(res.headers.get('x-total-count')).toBe('2');
    // false is no filter at all.
    expect(ids((await owner.get(`${R}?awaitingMe=false`)).body)).toEqual(ids((await owner.get(R)).body));
  });

  it('pages and counts like the rest of the list, and combines with status', async () => {
    const first = await owner.get(`${R}?awaitingMe=true&limit=1`);
    expect(first.body).toHaveLength(1);
    expect(first.headers.get('x-total-count')).toBe('2');
    const paged = await allPages(owner, 'awaitingMe=true', 1);
    expect(paged.ids).toEqual(ids((await owner.get(`${R}?awaitingMe=true`)).body));
    expect((await owner.get(`${R}?awaitingMe=true&status=sent`)).body).toHaveLength(2);
    const drafts = await owner.get(`${R}?awaitingMe=true&status=draft&limit=5`);
    expect(drafts.body).toEqual([]);
    expect(drafts.headers.get('x-total-count')).toBe('0');
  });

  it('keeps the visibility rule: a member is not shown a request on a document they cannot see', async () => {
    const res = await member.get(`${R}?awaitingMe=true&limit=5`);
    expect(ids(res.body)).toEqual([made.both]);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('answers another entity’s caller only from their own entity', async () => {
    const res = await other.get(`${R}?awaitingMe=true`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses an API key (no person to wait for) with 400', async () => {
    const key = await server.apiKeyClient(owner, ['read:documents']);
    expect((await key.get(`${R}?entityId=${owner.entityId}`)).status).toBe(200);
    const res = await key.get(`${R}?entityId=${owner.entityId}&awaitingMe=true`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/awaitingMe/);
  });

  it('documents the paging and the filter in the OpenAPI description', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const list = doc.paths[R].get;
    expect(list.description).toContain('x-next-cursor');
    expect(list.description).toContain('awaitingMe');
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor', 'awaitingMe']));
  });
});
