// The spec's `search` on tickets (a case-insensitive substring of the subject), now counted and
// found from the subject trigram index (migration 0033, server/helpdesk/subject-search.ts). Its
// pages and counts must be exactly what the substring rule says, computed here in JS: for any
// subject and needle (case, spaces, quotes, letters beyond ASCII, needles too short for a
// trigram), across cursor pages, per entity, after subjects change and tickets go.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: SessionClient;
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
  subject: string;
  createdAt: string;
  entityId: string;
}

const BASE = Date.parse('2025-03-01T12:00:00.000Z');
/** Few letters, so needles cut from one subject often occur in others. */
const letter = fc.constantFrom('a', 'B', 'c', ' ', '"', 'é', 'É', 'İ', 'ß', 'Σ', '-', '1');
const subjectArb = fc.array(letter, { minLength: 0, maxLength: 10 }).map((cs) => cs.join(''));
const rowsArb = fc.uniqueArray(
  fc.record({ id: fc.uuid(), subject: subjectArb, ms: fc.constantFrom(0, 0, 1, 60_000, 86_400_000), elsewhere: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }),
  { minLength: 1, maxLength: 60, selector: (r) => r.id },
);

function insertTickets(rows: Row[]) {
  const insert = server.ctx.sqlite.prepare(
    `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, status, priority, channel, search_text, created_at, updated_at)
     values (?, ?, ?, ?, 'new', 'normal', 'web', ?, ?, ?)`,
  );
  // As the app writes it (tickets.ts searchTextOf): the subject lowered.
  for (const r of rows) insert.run(r.id, r.entityId, `T-${r.id}`, r.subject, r.subject.toLowerCase(), r.createdAt, r.createdAt);
}

const expected = (rows: Row[], entityId: string, needle: string) =>
  rows
    // The route trims the parameter (schemas.ts).
    .filter((r) => r.entityId === entityId && r.subject.toLowerCase().includes(needle.trim().toLowerCase()))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((r) => r.id);

async function searchPages(needle: string, limit: number, entityId = owner.entityId) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const url: string = `/api/helpdesk/tickets?search=${encodeURIComponent(needle)}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: { status: number; body: { id: string }[]; headers: Headers } = await owner.get(url, { headers: { 'x-entity-id': entityId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    totals.add(Number(res.headers.get('x-total-count')));
    ids.push(...res.body.map((t) => t.id));
    cursor = res.headers.get('x-next-cursor');
    if (!cursor) break;
  }
  return { ids, totals: [...totals] };
}

describe('tickets: search (a substring of the subject) from the trigram index', () => {
  it('every page and count equals the substring rule, per entity, for any subject and needle', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.nat(), fc.nat({ max: 6 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.integer({ min: 1, max: 7 }), async (specs, pick, start, length, upper, limit) => {
        const rows: Row[] = specs.map((s) => ({ id: s.id, subject: s.subject, createdAt: new Date(BASE + s.ms).toISOString(), entityId: s.elsewhere ? otherEntityId : owner.entityId }));
        insertTickets(rows);
        try {
          // A needle cut from one of the subjects (or past its end: then often empty or short), its case changed.
          const from = [...rows[pick % rows.length].subject];
          let needle = from.slice(start, start + length).join('');
          if (upper) needle = needle.toUpperCase();
          if (needle.trim() === '') needle = 'bc';
          for (const entityId of [owner.entityId, otherEntityId]) {
            const want = expected(rows, entityId, needle);
            const got = await searchPages(needle, limit, entityId);
            expect(got.ids).toEqual(want);
            expect(got.totals).toEqual([want.length]);
          }
        } finally {
          // Through the delete trigger: the next run's counts start from nothing.
          server.ctx.sqlite.prepare(`delete from helpdesk_tickets where id in (${rows.map(() => '?').join(',')})`).run(...rows.map((r) => r.id));
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  }, 120_000);

  it('a subject changed through the API is found by its new words only', async () => {
    const created = await owner.post('/api/helpdesk/tickets', { subject: 'Laminator smoking' });
    expect(created.status).toBe(201);
    expect((await searchPages('laminator', 10)).ids).toEqual([created.body.id]);
    const patched = await owner.patch(`/api/helpdesk/tickets/${created.body.id}`, { subject: 'Shredder jammed' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await searchPages('laminator', 10)).toEqual({ ids: [], totals: [0] });
    expect(await searchPages('SHREDDER J', 10)).toEqual({ ids: [created.body.id], totals: [1] });
  });

  it('many matches: the newest-first walk, with the count from the index', async () => {
    const rows: Row[] = Array.from({ length: 2_100 }, (_, i) => ({
      id: `0190bbbb-0000-7000-8000-${String(i).padStart(12, '0')}`,
      subject: i % 3 === 0 ? `Old Toner ${i}` : `Toner low ${i}`,
      createdAt: new Date(BASE + (i % 500) * 1000).toISOString(),
      entityId: owner.entityId,
    }));
    insertTickets(rows);
    const want = expected(rows, owner.entityId, 'toner low');
    expect(want.length).toBe(1_400);
    const first = await owner.get(`/api/helpdesk/tickets?search=toner%20low&limit=50`);
    expect(first.headers.get('x-total-count')).toBe('1400');
    expect(first.body.map((t: { id: string }) => t.id)).toEqual(want.slice(0, 50));
    const all = await searchPages('TONER', 200);
    expect(all.ids).toEqual(expected(rows, owner.entityId, 'toner'));
    expect(all.totals).toEqual([2_100]);
  }, 60_000);
});
