// Full-text search of tickets (`q`): subject, description, contact, number and message bodies,
// kept current by triggers; `search` keeps its exact meaning (a substring of the subject).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: SessionClient;
const T = '/api/helpdesk/tickets';
const ids: string[] = [];
const found = async (c: SessionClient, query: string) => {
  const res = await c.get(`${T}?${query}`);
  expect(res.status).toBe(200);
  return res.body.map((t: { id: string }) => t.id);
};

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup({ name: 'Olive Owner' });
  const tickets = [
    { subject: 'Printer on fire', description: 'Smoke from the tray', contactName: 'Ann Müller', contactEmail: 'ann@example.com' },
    { subject: 'Invoice wrong', description: 'Charged twice for March', contactName: 'Bob', contactEmail: 'bob@shop.test' },
    { subject: 'Café menu typo', description: null, contactName: null, contactEmail: null },
  ];
  for (const t of tickets) ids.push((await owner.post(T, t)).body.id);
  await owner.post(`${T}/${ids[1]}/messages`, { body: 'We refunded the duplicate payment yesterday.' });
  await owner.post(`${T}/${ids[2]}/messages`, { body: 'Internal: ask the kitchen about the espresso price', isInternal: true });
});
afterAll(() => server.close());

describe('ticket full-text search (q)', () => {
  it('finds words of the subject, description, contact, number and messages, as prefixes, ignoring case and accents', async () => {
    expect(await found(owner, 'q=printer')).toEqual([ids[0]]);
    expect(await found(owner, 'q=SMOKE')).toEqual([ids[0]]);
    expect(await found(owner, 'q=muller')).toEqual([ids[0]]);
    expect(await found(owner, 'q=shop.test')).toEqual([ids[1]]);
    expect(await found(owner, 'q=refund')).toEqual([ids[1]]);
    expect(await found(owner, 'q=espresso')).toEqual([ids[2]]);
    expect(await found(owner, 'q=cafe')).toEqual([ids[2]]);
    const number = (await owner.get(`${T}/${ids[1]}`)).body.ticketNumber as string;
    expect(await found(owner, `q=${number}`)).toEqual([ids[1]]);
  });

  it('needs every word; combines with the other filters; pages', async () => {
    expect(await found(owner, 'q=charged%20march')).toEqual([ids[1]]);
    expect(await found(owner, 'q=charged%20smoke')).toEqual([]);
    expect(await found(owner, 'q=refund&priority=normal')).toEqual([ids[1]]);
    expect(await found(owner, 'q=refund&priority=high')).toEqual([]);
    const page = await owner.get(`${T}?q=printer&limit=1`);
    expect(page.headers.get('x-total-count')).toBe('1');
  });

  it('does not find timeline entries (system messages)', async () => {
    expect(await found(owner, 'q=olive')).toEqual([]);
    expect(await found(owner, 'q=created')).toEqual([]);
  });

  it('follows edits: a changed subject is found by its new words only', async () => {
    await owner.patch(`${T}/${ids[0]}`, { subject: 'Scanner jammed' });
    expect(await found(owner, 'q=printer')).toEqual([]);
    expect(await found(owner, 'q=scanner')).toEqual([ids[0]]);
  });

  it("takes any text (FTS operators are plain words) and never shows another entity's tickets", async () => {
    for (const q of ['"', 'NEAR(', 'body:x', '*', 'a OR', '%', '-']) expect((await owner.get(`${T}?q=${encodeURIComponent(q)}`)).status).toBe(200);
    expect(await found(owner, `q=${encodeURIComponent('%')}`)).toEqual([]);
    const other = await server.signup();
    await other.post(T, { subject: 'Printer again', description: 'refund please' });
    expect(await found(owner, 'q=again')).toEqual([]);
    expect(await found(other, 'q=refund')).toHaveLength(1);
    expect((await owner.get(`${T}?q=${'x'.repeat(201)}`)).status).toBe(400);
  });

  it('leaves search as it was: a case-insensitive substring of the subject alone', async () => {
    expect(await found(owner, 'search=nvoice')).toEqual([ids[1]]);
    expect(await found(owner, 'search=refund')).toEqual([]);
  });
});
