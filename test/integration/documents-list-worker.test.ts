// The spec's unpaged documents list (GET /api/documents without limit or cursor) is read by the
// read pool's worker, as the unpaged ticket list is: the body is the paged route's pages joined,
// byte for byte, with the same count, for every filter and caller; a stalled worker shows which
// path answered (a list longer than the pool's inlineRows waits for it, a short one does not).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { ReadPool, replaceReadPool } from '../../server/db/read-pool.js';
import { listDocuments } from '../../server/documents/list-documents.js';
import { documents } from '../../server/documents/tables.js';
import { addMember, uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
let colleague: SessionClient;
let leases: string;
let hr: string;
const D = '/api/documents';

async function upload(name: string, folderId?: string): Promise<string> {
  const res = await uploadPdf(owner, { name, folderId });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  colleague = await addMember(server, owner, 'member');
  const grantee = await addMember(server, owner, 'member');
  for (let i = 0; i < 6; i++) await upload(`Unfiled contract ${i}`);
  leases = (await owner.post(`${D}/folders`, { name: 'Leases' })).body.id;
  const filed = [];
  for (let i = 0; i < 4; i++) filed.push(await upload(`Lease contract ${i}`, leases));
  expect((await owner.post(`${D}/folders/${leases}/reorder`, { documentIds: [filed[2], filed[0]] })).status).toBe(200);
  for (let i = 4; i < 6; i++) await upload(`Lease ${i}`, leases);
  // A folder granted to someone else: the colleague's list leaves its document out.
  hr = (await owner.post(`${D}/folders`, { name: 'HR' })).body.id;
  expect((await owner.post(`${D}/folders/${hr}/grants`, { userId: grantee.user.id, level: 'view' })).status).toBe(201);
  await upload('Salaries contract', hr);
}, 120_000);
afterAll(() => server.close());

const fetchAs = (client: SessionClient, path: string) => fetch(`${server.url}${path}`, { headers: { cookie: client.cookie, 'x-entity-id': owner.entityId } });

/** Every page of `query` (page size 2) joined, and the count each page said. */
async function pagesOf(client: SessionClient, query: string) {
  const items: unknown[] = [];
  const totals = new Set<string | null>();
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res = await fetchAs(client, `${D}?${query}${query ? '&' : ''}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (res.status !== 200) return { status: res.status, items, totals };
    items.push(...((await res.json()) as unknown[]));
    totals.add(res.headers.get('x-total-count'));
    cursor = res.headers.get('x-next-cursor');
    if (!cursor) return { status: 200, items, totals };
  }
  throw new Error('the cursor never ended');
}

const FILTERS = ['', 'folderId=root', () => `folderId=${leases}`, () => `folderId=${hr}`, 'search=lease', 'search=LEASE%20contract', 'q=contract', 'q=lease', 'q=%21%21', 'search=lease&q=contract', () => `folderId=${leases}&search=contract`];

async function expectWorkerListsEqualPages(pool: ReadPool) {
  for (const client of [owner, colleague]) {
    for (const f of FILTERS) {
      const query = typeof f === 'function' ? f() : f;
      const label = `${client === owner ? 'owner' : 'colleague'} ?${query}`;
      const before = pool.load;
      const res = await fetchAs(client, `${D}${query ? `?${query}` : ''}`);
      const paged = await pagesOf(client, query);
      expect(res.status, label).toBe(paged.status);
      if (res.status !== 200) continue;
      const text = await res.text();
      expect(text, label).toBe(JSON.stringify(paged.items));
      expect(res.headers.get('x-total-count'), label).toBe(String(paged.items.length));
      expect(paged.totals, label).toEqual(new Set([String(paged.items.length)]));
      expect(res.headers.get('x-next-cursor'), label).toBeNull();
      expect(pool.load, label).toEqual(before);
    }
  }
}

describe('the unpaged documents list in the read worker', () => {
  it('answers, for every filter and caller, the paged pages joined byte for byte, and what the server connection reads', async () => {
    // A pool that reads every list in its worker (the default answers a list this small itself).
    const workerOnly = new ReadPool({ file: server.ctx.sqlite.name, inlineRows: 0, chunkRows: 3 });
    const real = replaceReadPool(server.ctx, workerOnly);
    try {
      await expectWorkerListsEqualPages(workerOnly);
      const all = await fetchAs(owner, D);
      expect(await all.text()).toBe(JSON.stringify(listDocuments(server.ctx, owner.entityId, { kind: 'full' }, {}).items));
      expect(all.headers.get('x-total-count')).toBe('13');
      expect((await fetchAs(colleague, D)).headers.get('x-total-count')).toBe('12');
      const theirs = await server.signup();
      const empty = await fetch(`${server.url}${D}`, { headers: { cookie: theirs.cookie, 'x-entity-id': theirs.entityId } });
      expect(await empty.text()).toBe('[]');
      expect(empty.headers.get('x-total-count')).toBe('0');
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await workerOnly.close();
    }
  });

  it('reads a full-text filter of many matches (the index subquery) and several chunks the same', async () => {
    const big = await server.signup();
    // Written straight to the table (the search index's triggers fill it): an upload per row would take minutes.
    const rows = Array.from({ length: 1100 }, (_, i) => {
      const at = new Date(Date.parse('2025-01-01T00:00:00Z') + Math.floor(i / 3) * 60_000).toISOString();
      return { id: randomUUID(), entityId: big.entityId, folderId: null, name: `Invoice ${i}${i % 2 ? ' paid' : ''}`, sha256: 'a'.repeat(64), size: 1, pageCount: 1, pages: [{ width: 612, height: 792 }], createdAt: at, updatedAt: at };
    });
    server.ctx.sqlite.transaction(() => {
      for (let i = 0; i < rows.length; i += 200) server.ctx.db.insert(documents).values(rows.slice(i, i + 200)).run();
    })();
    const workerOnly = new ReadPool({ file: server.ctx.sqlite.name, inlineRows: 0, chunkRows: 300 });
    const real = replaceReadPool(server.ctx, workerOnly);
    try {
      for (const query of ['', 'q=invoice', 'q=invoice%20paid', 'search=paid&q=invoice']) {
        const res = await fetch(`${server.url}${D}${query ? `?${query}` : ''}`, { headers: { cookie: big.cookie, 'x-entity-id': big.entityId } });
        expect(res.status, query).toBe(200);
        const text = await res.text();
        const params = Object.fromEntries(new URLSearchParams(query));
        const expected = listDocuments(server.ctx, big.entityId, { kind: 'full' }, params).items;
        expect(text, query).toBe(JSON.stringify(expected));
        expect(res.headers.get('x-total-count'), query).toBe(String(expected.length));
      }
      expect(JSON.parse(await (await fetch(`${server.url}${D}?q=invoice`, { headers: { cookie: big.cookie, 'x-entity-id': big.entityId } })).text())).toHaveLength(1100);
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await workerOnly.close();
    }
  });

  it('answers the same on the inline path (an entity of at most inlineRows documents)', async () => {
    const inline = new ReadPool({ file: server.ctx.sqlite.name, inlineRows: 500, workerUrl: new URL('../fixtures/read-workers/stall.mjs', import.meta.url) });
    const real = replaceReadPool(server.ctx, inline);
    try {
      await expectWorkerListsEqualPages(inline);
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await inline.close();
    }
  });

  it('answers an entity of up to inlineRows documents itself (whatever the filter), a longer one in the worker', async () => {
    const stall = new URL('../fixtures/read-workers/stall.mjs', import.meta.url);
    for (const [inlineRows, query, inline] of [
      [13, '', true],
      [12, '', false],
      [12, 'search=lease', false],
      [13, `folderId=${leases}`, true],
    ] as const) {
      const label = `?${query} with inlineRows ${inlineRows}`;
      const stalled = new ReadPool({ file: server.ctx.sqlite.name, inlineRows, workerUrl: stall });
      const real = replaceReadPool(server.ctx, stalled);
      try {
        let settled = false;
        const res = fetchAs(owner, `${D}?${query}`).finally(() => (settled = true));
        // Whichever comes first: the answer (read here), or the read waiting in the stalled worker.
        const first = await Promise.race([
          res.then(() => 'answered' as const),
          (async () => {
            while (stalled.load.running === 0 && !settled) await new Promise((r) => setTimeout(r, 10));
            return settled ? ('answered' as const) : ('in the worker' as const);
          })(),
        ]);
        expect(first, label).toBe(inline ? 'answered' : 'in the worker');
        if (inline) {
          const answered = await res;
          expect(answered.status, label).toBe(200);
          expect(stalled.load.running, label).toBe(0);
        } else {
          await stalled.close();
          const refused = await res;
          expect(refused.status, label).toBe(503);
          expect((await refused.json()).error, label).toEqual(expect.any(String));
        }
      } finally {
        if (real) replaceReadPool(server.ctx, real);
        await stalled.close();
      }
    }
  });
});
