// Full-text lists read their pages by walking the search index newest first (migration 0030: the
// index is keyed by creation time, the entity is in the match). The order must stay the lists' own
// — created_at desc, then id desc — whatever order rows were written in (sync brings old rows
// late), with many rows in one millisecond, across pages and cursors, and counts per entity.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: SessionClient;
/** Another entity of the same owner, whose rows carry the same words. */
let otherEntityId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ name: 'Olive Owner' });
  const other = await owner.post('/api/entities', { name: 'Other Ltd' });
  expect(other.status).toBe(201);
  otherEntityId = other.body.id;
});
afterAll(() => server.close());

interface Row {
  id: string;
  createdAt: string;
  matches: boolean;
  entityId: string;
}

const BASE = Date.parse('2025-03-01T12:00:00.000Z');
/** A few milliseconds far apart and a few next to each other: ties and neighbours. */
const instant = fc.constantFrom(0, 0, 0, 1, 2, 2, 60_000, 86_400_000, -86_400_000 * 400).map((ms) => new Date(BASE + ms).toISOString());
const rowsArb = fc.uniqueArray(
  // Most rows match, a few are another entity's: pages then end inside a millisecond's rows.
  fc.record({ id: fc.uuid(), createdAt: instant, matches: fc.integer({ min: 0, max: 4 }).map((n) => n > 0), elsewhere: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }),
  { minLength: 1, maxLength: 120, selector: (r) => r.id },
);

let run = 0;
/** The word of one run: no other run's rows hold it. */
const wordOf = () => `zqx${++run}word`;

const expected = (rows: Row[], entityId: string) =>
  rows
    .filter((r) => r.matches && r.entityId === entityId)
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((r) => r.id);

/** fast-check may give a later run a uuid an earlier run had (it favours all zeros): that run's row goes first. */
function removeEarlier(table: string, rows: Row[]) {
  server.ctx.sqlite.prepare(`delete from ${table} where id in (select value from json_each(?))`).run(JSON.stringify(rows.map((r) => r.id)));
}

function insertTickets(rows: Row[], word: string) {
  removeEarlier('helpdesk_tickets', rows);
  const insert = server.ctx.sqlite.prepare(
    `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at)
     values (?, ?, ?, ?, 'new', 'normal', 'web', ?, ?, ?)`,
  );
  for (const r of rows) {
    const subject = r.matches ? `Question about ${word}` : 'Something else';
    insert.run(r.id, r.entityId, `T-${r.id.slice(0, 13)}`, subject, subject.toLowerCase(), r.createdAt, r.createdAt);
  }
}

function insertEvents(rows: Row[], word: string) {
  removeEarlier('ledger_events', rows);
  const insert = server.ctx.sqlite.prepare(
    `insert into ledger_events (id, entity_id, type, timestamp, payload, source, input_hash, schema_version, metadata, posting_status, created_at, updated_at)
     values (?, ?, 'expense_recorded', ?, ?, 'api', 'x', '1', '{}', 'pending', ?, ?)`,
  );
  for (const r of rows) insert.run(r.id, r.entityId, r.createdAt, JSON.stringify({ description: r.matches ? `Lunch ${word}` : 'Taxi' }), r.createdAt, r.createdAt);
}

async function ticketPages(word: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  for (let pages = 0; pages < 200; pages++) {
    const res: { status: number; body: { id: string }[]; headers: Headers } = await owner.get(`/api/helpdesk/tickets?q=${word}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    total = Number(res.headers.get('x-total-count'));
    ids.push(...res.body.map((t) => t.id));
    cursor = res.headers.get('x-next-cursor');
    if (!cursor) break;
  }
  return { ids, total };
}

describe('full-text lists in the lists’ order, read from the time-keyed index', () => {
  it('tickets: every page and the unpaged list, whatever order the rows were written in', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 7 }), async (input, limit) => {
        const word = wordOf();
        const rows = input.map((r) => ({ id: r.id, createdAt: r.createdAt, matches: r.matches, entityId: r.elsewhere ? otherEntityId : owner.entityId }));
        insertTickets(rows, word);
        const want = expected(rows, owner.entityId);
        const paged = await ticketPages(word, limit);
        expect(paged.ids).toEqual(want);
        expect(paged.total).toBe(want.length);
        const all = await owner.get(`/api/helpdesk/tickets?q=${word}`);
        expect(all.body.map((t: { id: string }) => t.id)).toEqual(want);
      }),
      { numRuns: 25 },
    );
  });

  it('tickets with a status filter and a word: every page, whether the walk serves it or SQLite does', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 20 }), async (input, limit, everyNth) => {
        const word = wordOf();
        const rows = input.map((r) => ({ id: r.id, createdAt: r.createdAt, matches: r.matches, entityId: r.elsewhere ? otherEntityId : owner.entityId }));
        insertTickets(rows, word);
        // Some of them closed: none (the walk finds nothing and gives way), every one, or every n-th.
        const closed = new Set(rows.filter((_, i) => everyNth > 0 && i % everyNth === 0).map((r) => r.id));
        const close = server.ctx.sqlite.prepare("update helpdesk_tickets set status = 'closed' where id = ?");
        for (const id of closed) close.run(id);
        const want = expected(rows, owner.entityId).filter((id) => closed.has(id));
        const ids: string[] = [];
        let cursor: string | null = null;
        for (let pages = 0; pages < 200; pages++) {
          const res: { status: number; body: { id: string }[]; headers: Headers } = await owner.get(`/api/helpdesk/tickets?q=${word}&status=closed&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(res.status).toBe(200);
          expect(Number(res.headers.get('x-total-count'))).toBe(want.length);
          ids.push(...res.body.map((t) => t.id));
          cursor = res.headers.get('x-next-cursor');
          if (!cursor) break;
        }
        expect(ids).toEqual(want);
      }),
      { numRuns: 25 },
    );
  });

  it('ledger events: each numbered page is its slice of the whole, and the total counts one entity', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 4 }), async (input, pageSize) => {
        const word = wordOf();
        const rows = input.map((r) => ({ id: r.id, createdAt: r.createdAt, matches: r.matches, entityId: r.elsewhere ? otherEntityId : owner.entityId }));
        insertEvents(rows, word);
        const want = expected(rows, owner.entityId);
        for (let page = 1; page <= Math.ceil(want.length / pageSize) + 1; page++) {
          const res = await owner.get(`/api/ledger/events?q=${word}&page=${page}&pageSize=${pageSize}`);
          expect(res.status).toBe(200);
          expect(res.body.events.map((e: { id: string }) => e.id)).toEqual(want.slice((page - 1) * pageSize, page * pageSize));
          expect(res.body.total).toBe(want.length);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('more than 2,048 rows in one millisecond are all written, listed and counted', async () => {
    const word = wordOf();
    const at = new Date(BASE + 5).toISOString();
    const rows = Array.from({ length: 2100 }, () => ({ id: crypto.randomUUID(), createdAt: at, matches: true, entityId: owner.entityId }));
    server.ctx.sqlite.transaction(() => insertTickets(rows, word))();
    const want = expected(rows, owner.entityId);
    const first = await owner.get(`/api/helpdesk/tickets?q=${word}&limit=50`);
    expect(first.body.map((t: { id: string }) => t.id)).toEqual(want.slice(0, 50));
    expect(Number(first.headers.get('x-total-count'))).toBe(2100);
    const all = await owner.get(`/api/helpdesk/tickets?q=${word}`);
    expect(all.body.map((t: { id: string }) => t.id)).toEqual(want);
    // A filter that rejects nearly every match: the walk gives way to SQLite, same answer.
    const close = server.ctx.sqlite.prepare("update helpdesk_tickets set status = 'closed' where id = ?");
    for (const id of [want[3], want[2000], want[2099]]) close.run(id);
    const closed = await owner.get(`/api/helpdesk/tickets?q=${word}&status=closed&limit=2`);
    expect(closed.body.map((t: { id: string }) => t.id)).toEqual([want[3], want[2000]]);
    expect(closed.headers.get('x-total-count')).toBe('3');
    const rest = await owner.get(`/api/helpdesk/tickets?q=${word}&status=closed&limit=2&cursor=${encodeURIComponent(closed.headers.get('x-next-cursor')!)}`);
    expect(rest.body.map((t: { id: string }) => t.id)).toEqual([want[2099]]);
  });

  it('a deep page of a common word: more ids than SQLite takes parameters', async () => {
    const word = wordOf();
    const rows = Array.from({ length: 34_000 }, (_, i) => ({ id: crypto.randomUUID(), createdAt: new Date(BASE + i).toISOString(), matches: true, entityId: owner.entityId }));
    server.ctx.sqlite.transaction(() => insertEvents(rows, word))();
    const want = expected(rows, owner.entityId);
    const res = await owner.get(`/api/ledger/events?q=${word}&page=170&pageSize=200`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { id: string }) => e.id)).toEqual(want.slice(169 * 200, 170 * 200));
    expect(res.body.total).toBe(34_000);
  }, 120_000);

  it('a word that happens to be the entity’s own token matches nothing', async () => {
    const token = `e${Buffer.from(owner.entityId, 'utf8').toString('hex')}`;
    for (const q of [token, token.slice(0, 8)]) {
      const res = await owner.get(`/api/helpdesk/tickets?q=${q}&limit=5`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-total-count')).toBe('0');
      expect((await owner.get(`/api/ledger/events?q=${q}`)).body.total).toBe(0);
      expect((await owner.get(`/api/search?q=${q}`)).status).toBe(200);
    }
  });
});
