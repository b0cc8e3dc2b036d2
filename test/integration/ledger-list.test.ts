import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { invoice, postEvent } from './ledger-helpers.js';

let server: TestServer;
let c: SessionClient;
const ids: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
  c = await server.signup();
  for (let i = 0; i < 5; i++) ids.push((await postEvent(c, invoice(`${i + 1}.00`, '0'))).id);
  ids.push((await postEvent(c, { type: 'invoice_created', payload: {} })).id); // failed
  ids.push((await postEvent(c, { type: 'quote_issued', payload: { quoteNumber: 'Q', currency: 'USD', amount: '3' } })).id); // unposted
  await c.post(`/api/ledger/events/${ids[0]}/reverse`, {});
  await c.put('/api/ledger/settings', { approvalThresholds: { USD: '500' } });
  ids.push((await postEvent(c, invoice('600.00', '0'))).id); // pending
  // Another entity's events never show up here.
  const other = await server.signup();
  await postEvent(other, invoice());
});
afterAll(() => server.close());

describe('GET /api/ledger/events', () => {
  it('lists newest first with total, page and pageSize (default 50)', async () => {
    const res = await c.get('/api/ledger/events');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 8, page: 1, pageSize: 50 });
    expect(res.body.events.map((e: any) => e.id)).toEqual([...ids].reverse());
  });

  it('paginates stably and returns an empty page past the end', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push((await c.get(`/api/ledger/events?page=${page}&pageSize=3`)).body);
    expect(pages.map((p) => p.events.length)).toEqual([3, 3, 2]);
    expect(pages.flatMap((p) => p.events.map((e: any) => e.id))).toEqual([...ids].reverse());
    const past = await c.get('/api/ledger/events?page=9&pageSize=3');
    expect(past.body).toMatchObject({ events: [], total: 8, page: 9, pageSize: 3 });
    expect((await c.get('/api/ledger/events?pageSize=200')).status).toBe(200);
  });

  it('refuses out-of-range pagination with 400', async () => {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'pageSize=0', 'pageSize=201', 'pageSize=2.5']) {
      const res = await c.get(`/api/ledger/events?${q}`);
      expect([q, res.status]).toEqual([q, 400]);
      expect(res.body.error).toBeTypeOf('string');
    }
  });

  it('filters by postingStatus and type; refuses an unknown status', async () => {
    const posted = await c.get('/api/ledger/events?postingStatus=posted');
    expect(posted.body.total).toBe(4);
    expect(posted.body.events.every((e: any) => e.postingStatus === 'posted')).toBe(true);
    expect((await c.get('/api/ledger/events?postingStatus=reversed')).body.events.map((e: any) => e.id)).toEqual([ids[0]]);
    expect((await c.get('/api/ledger/events?type=quote_issued')).body.total).toBe(1);
    expect((await c.get('/api/ledger/events?postingStatus=done')).status).toBe(400);
  });

  it('filters by business timestamp with from and to', async () => {
    const d = await server.signup();
    const dated = await postEvent(d, { ...invoice('1.00', '0'), timestamp: '2025-06-15T12:00:00Z' });
    await postEvent(d, { ...invoice('2.00', '0'), timestamp: '2025-07-01T00:00:00Z' });
    const june = await d.get('/api/ledger/events?from=2025-06-01T00:00:00Z&to=2025-06-30T23:59:59Z');
    expect(june.body.events.map((e: any) => e.id)).toEqual([dated.id]);
    expect((await d.get('/api/ledger/events?view=statusCounts&from=2025-06-01T00:00:00Z&to=2025-06-30T23:59:59Z')).body.total).toBe(1);
    expect((await d.get('/api/ledger/events?from=2025-06-20T00:00:00Z')).body.total).toBe(1);
    expect((await d.get('/api/ledger/events?from=june')).status).toBe(400);
  });

  it('returns counts per status with view=statusCounts', async () => {
    const res = await c.get('/api/ledger/events?view=statusCounts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ counts: { posted: 4, pending_approval: 1, reversed: 1, failed: 1, unposted: 1 }, total: 8 });
    const typed = await c.get('/api/ledger/events?view=statusCounts&type=quote_issued');
    expect(typed.body).toEqual({ counts: { posted: 0, pending_approval: 0, reversed: 0, failed: 0, unposted: 1 }, total: 1 });
    expect((await c.get('/api/ledger/events?view=other')).status).toBe(400);
  });

  it('documents the query parameter names in the OpenAPI document', async () => {
    const doc = await server.anon.get('/api/openapi.json');
    const params = doc.body.paths['/api/ledger/events'].get.parameters.map((p: any) => p.name);
    expect(params).toEqual(expect.arrayContaining(['entityId', 'postingStatus', 'view', 'page', 'pageSize']));
    expect(doc.body.paths['/api/ledger/events/batch-reclassify'].post).toBeDefined();
    expect(doc.body.paths['/api/ledger/trial-balance'].get).toBeDefined();
  });
});
