// GET /api/documents pages as the ticket list does: opt-in `limit`/`cursor`, `x-next-cursor`,
// `x-total-count`; without them the body is every matching document, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
const D = '/api/documents';

async function upload(name: string, folderId?: string): Promise<string> {
  const res = await uploadPdf(owner, { name, folderId });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Every page of `query` with page size `limit`, and what each page's headers said. */
async function allPages(query: string, limit: number) {
  const ids: string[] = [];
  const totals: (string | null)[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: { status: number; body: any; headers: Headers } = await owner.get(`${D}?${query}${query ? '&' : ''}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.map((d: { id: string }) => d.id));
    totals.push(res.headers.get('x-total-count'));
    cursor = res.headers.get('x-next-cursor');
    if (!cursor) return { ids, totals, pages: pages + 1 };
  }
  throw new Error('the cursor never ended');
}

let folderId: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  for (let i = 0; i < 7; i++) await upload(`Unfiled contract ${i}`);
  folderId = (await owner.post('/api/documents/folders', { name: 'Leases' })).body.id;
  const filed = [];
  for (let i = 0; i < 4; i++) filed.push(await upload(`Lease ${i}`, folderId));
  // Placed in a manual order, then two more that have no place yet (they list after the placed ones).
  expect((await owner.post(`/api/documents/folders/${folderId}/reorder`, { documentIds: [filed[2], filed[0]] })).status).toBe(200);
  for (let i = 4; i < 6; i++) await upload(`Lease ${i}`, folderId);
}, 120_000);
afterAll(() => server.close());

describe('GET /api/documents paging', () => {
  it('without limit or cursor answers every document, as before, with the count in x-total-count', async () => {
    const res = await owner.get(D);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(13);
    expect(res.headers.get('x-total-count')).toBe('13');
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it('pages newest first through every document once, in the unpaged order', async () => {
    const everything = (await owner.get(D)).body.map((d: { id: string }) => d.id);
    const paged = await allPages('', 3);
    expect(paged.ids).toEqual(everything);
    expect(paged.pages).toBe(5);
    expect(new Set(paged.totals)).toEqual(new Set(['13']));
  });

  it('pages a folder in its manual order (placed first, then unplaced newest first)', async () => {
    const everything = (await owner.get(`${D}?folderId=${folderId}`)).body.map((d: { id: string; name: string }) => d.id);
    expect(everything).toHaveLength(6);
    for (const limit of [1, 2, 4]) expect((await allPages(`folderId=${folderId}`, limit)).ids).toEqual(everything);
    expect((await allPages('folderId=root', 2)).ids).toHaveLength(7);
  });

  it('keeps the filters on every page: name search and full-text q', async () => {
    const byName = await allPages('search=lease', 2);
    expect(byName.ids).toHaveLength(6);
    expect(new Set(byName.totals)).toEqual(new Set(['6']));
    const byText = await allPages('q=unfiled', 4);
    expect(byText.ids).toEqual((await owner.get(`${D}?q=unfiled`)).body.map((d: { id: string }) => d.id));
    expect(byText.ids).toHaveLength(7);
  });

  it('uses the default page size (50) with a cursor alone', async () => {
    const first = await owner.get(`${D}?limit=12`);
    const rest = await owner.get(`${D}?cursor=${encodeURIComponent(first.headers.get('x-next-cursor')!)}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toHaveLength(1);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
  });

  it.each([['limit=0'], ['limit=201'], ['limit=abc'], ['limit=1.5'], ['limit=-1'], ['cursor=garbage'], [`cursor=${'a'.repeat(201)}`]])('rejects ?%s with 400 and an error', async (qs) => {
    const res = await owner.get(`${D}?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('rejects a cursor of another order or a forged position with 400', async () => {
    const newest = (await owner.get(`${D}?limit=1`)).headers.get('x-next-cursor')!;
    const inFolder = (await owner.get(`${D}?folderId=${folderId}&limit=1`)).headers.get('x-next-cursor')!;
    const forged = Buffer.from(JSON.stringify(['x1|2026-01-01T00:00:00.000Z', 'id'])).toString('base64url');
    for (const qs of [`folderId=${folderId}&cursor=${newest}`, `cursor=${inFolder}`, `folderId=${folderId}&cursor=${forged}`]) {
      const res = await owner.get(`${D}?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.error).toBe('cursor is not valid');
    }
  });

  it('documents the paging in the OpenAPI description', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const list = doc.paths[D].get;
    expect(list.description).toContain('x-next-cursor');
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor']));
  });
});
