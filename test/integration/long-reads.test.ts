// Long reads (the journal's CSV export, the unpaged ticket list) run in read workers with their
// own connection: the server answers other requests meanwhile, the answers are the same as read
// on the server's connection, and a failing or overloaded worker answers 503 with { error }.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { ReadPool, readPool, replaceReadPool } from '../../server/db/read-pool.js';
import { exportJournalCsvNow } from '../../server/ledger/journal-report.js';
import { listTickets } from '../../server/helpdesk/tickets.js';
import { getTrialBalance } from '../../server/ledger/trial-balance.js';
import { getBalanceSheet, getProfitAndLoss } from '../../server/ledger/statements.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;

/** Events of three journal lines each: enough that an export takes many chunks. */
const EVENTS = 8000;
const BATCH = 1000;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
  for (let from = 0; from < EVENTS; from += BATCH) {
    const events = Array.from({ length: BATCH }, (_, k) => {
      const i = from + k;
      const at = new Date(Date.parse('2025-01-01T00:00:00Z') + i * 3_600_000).toISOString();
      return { type: 'invoice_created', timestamp: at, payload: { invoiceNumber: `INV-${i}`, currency: 'USD', netAmount: `${100 + (i % 900)}.00`, taxAmount: `${(i % 50) + 1}.25` } };
    });
    const res = await owner.post('/api/ledger/events/batch', { events });
    expect(res.status).toBe(200);
  }
  for (let i = 0; i < 30; i++) expect((await owner.post('/api/helpdesk/tickets', { subject: `Printer ${i} jams`, description: `Case ${i}`, contactEmail: `c${i}@example.com` })).status).toBe(201);
}, 300_000);
afterAll(() => server.close());

const url = (path: string, client: SessionClient) => `${server.url}${path}${path.includes('?') ? '&' : '?'}entityId=${client.entityId}`;
const fetchAs = (client: SessionClient, path: string) => fetch(url(path, client), { headers: { cookie: client.cookie } });

describe('a long export does not hold up other requests', () => {
  it('answers /api/health while the journal export is being read, and exports what the server connection reads', async () => {
    const pool = readPool(server.ctx)!;
    let exportDone = false;
    const exported = fetchAs(owner, '/api/ledger/journal.csv').then(async (r) => {
      const text = await r.text();
      exportDone = true;
      return { status: r.status, type: r.headers.get('content-type'), text };
    });
    // Health answered while the export is still in the worker, and before its response came.
    let answeredDuring = 0;
    while (!exportDone) {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      if (pool.load.running > 0 && !exportDone) answeredDuring++;
    }
    const csv = await exported;
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    expect(answeredDuring).toBeGreaterThan(0);
    expect(csv.text.split('\r\n').length - 2).toBe(EVENTS * 3);
    expect(csv.text).toBe(exportJournalCsvNow(server.ctx, owner.entityId, {}));
    // Filters and entity isolation as before: a period, and another entity's (empty) journal.
    const period = await fetchAs(owner, '/api/ledger/journal.csv?from=2025-01-02T00:00:00Z&to=2025-01-03T00:00:00Z');
    expect(await period.text()).toBe(exportJournalCsvNow(server.ctx, owner.entityId, { from: '2025-01-02T00:00:00Z', to: '2025-01-03T00:00:00Z' }));
    const theirs = await fetchAs(other, '/api/ledger/journal.csv');
    expect((await theirs.text()).split('\r\n')).toHaveLength(2);
  }, 120_000);

  it('serves the unpaged ticket list from the worker: the same JSON, count and ETag as before', async () => {
    // A pool that reads every list in its worker (the default answers a list this small itself).
    const workerOnly = new ReadPool({ file: server.ctx.sqlite.name, inlineRows: 0 });
    const real = replaceReadPool(server.ctx, workerOnly);
    try {
      await expectWorkerList();
      expect(workerOnly.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await workerOnly.close();
    }
  });

  it('answers an unfiltered list of up to inlineRows tickets itself, a longer or filtered one in the worker', async () => {
    const stall = new URL('../fixtures/read-workers/stall.mjs', import.meta.url);
    for (const [inlineRows, path, inline] of [
      [30, '/api/helpdesk/tickets', true],
      [29, '/api/helpdesk/tickets', false],
      [500, '/api/helpdesk/tickets?status=new', false],
    ] as const) {
      const stalled = new ReadPool({ file: server.ctx.sqlite.name, inlineRows, workerUrl: stall });
      const real = replaceReadPool(server.ctx, stalled);
      try {
        const res = fetchAs(owner, path);
        if (inline) {
          const answered = await res;
          expect(answered.status, path).toBe(200);
          expect(await answered.text()).toBe(JSON.stringify(listTickets(server.ctx, owner.entityId, {}).items));
          expect(stalled.load.running).toBe(0);
        } else {
          while (stalled.load.running === 0) await new Promise((r) => setTimeout(r, 10));
          await stalled.close();
          expect((await res).status, `${path} with inlineRows ${inlineRows}`).toBe(503);
        }
      } finally {
        if (real) replaceReadPool(server.ctx, real);
        await stalled.close();
      }
    }
  });
});

async function expectWorkerList() {
  {
    const res = await fetchAs(owner, '/api/helpdesk/tickets');
    expect(res.status).toBe(200);
    const text = await res.text();
    const expected = listTickets(server.ctx, owner.entityId, {});
    expect(text).toBe(JSON.stringify(expected.items));
    expect(res.headers.get('x-total-count')).toBe('30');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    // node:http: fetch adds `Cache-Control: no-cache` to a conditional request, which never gets 304.
    const again = await new Promise<number>((resolve, reject) => {
      http.get(url('/api/helpdesk/tickets', owner), { headers: { cookie: owner.cookie, 'if-none-match': etag! } }, (r) => resolve(r.resume().statusCode ?? 0)).on('error', reject);
    });
    expect(again).toBe(304);
    const filtered = await fetchAs(owner, '/api/helpdesk/tickets?search=printer%201');
    expect(JSON.parse(await filtered.text()).map((t: { subject: string }) => t.subject).sort()).toEqual(
      ['Printer 1 jams', ...Array.from({ length: 10 }, (_, i) => `Printer 1${i} jams`)].sort(),
    );
    const theirs = await fetchAs(other, '/api/helpdesk/tickets');
    expect(await theirs.text()).toBe('[]');
    expect(theirs.headers.get('x-total-count')).toBe('0');
  }
}

describe('reports read their totals in the worker', () => {
  it('answers the same trial balance, balance sheet and profit and loss as read on the server connection', async () => {
    const asOf = '2025-06-01T12:00:00.000Z';
    const period = { from: '2025-02-03T05:00:00.000Z', to: '2025-08-20T17:30:00.000Z' };
    const get = async (path: string) => {
      const res = await fetchAs(owner, path);
      expect(res.status, path).toBe(200);
      return res.json();
    };
    expect(await get(`/api/ledger/trial-balance?asOf=${asOf}`)).toEqual(getTrialBalance(server.ctx, owner.entityId, asOf));
    expect(await get('/api/ledger/trial-balance?asOf=2030-01-01T00:00:00Z')).toEqual(getTrialBalance(server.ctx, owner.entityId, '2030-01-01T00:00:00Z'));
    expect(await get(`/api/ledger/reports/balance-sheet?asOf=${asOf}`)).toEqual(getBalanceSheet(server.ctx, owner.entityId, { asOf }));
    expect(await get(`/api/ledger/reports/profit-and-loss?from=${period.from}&to=${period.to}`)).toEqual(getProfitAndLoss(server.ctx, owner.entityId, period));
    // Another entity's reports hold none of it.
    const theirs = await fetchAs(other, `/api/ledger/trial-balance?asOf=${asOf}`);
    expect((await theirs.json()).rows).toEqual([]);
  });
});

describe('when the read worker fails', () => {
  const file = () => server.ctx.sqlite.name;

  it('a worker that dies answers 503 with an error, never 500; the next read works again', async () => {
    const crashing = new ReadPool({ file: file(), inlineRows: 0, workerUrl: new URL('../fixtures/read-workers/crash.mjs', import.meta.url) });
    const real = replaceReadPool(server.ctx, crashing);
    try {
      for (const path of ['/api/ledger/journal.csv', '/api/helpdesk/tickets', '/api/ledger/trial-balance', '/api/ledger/reports/profit-and-loss']) {
        const res = await fetchAs(owner, path);
        expect(res.status, path).toBe(503);
        expect((await res.json()).error).toMatch(/worker stopped/);
      }
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await crashing.close();
    }
    expect((await fetchAs(owner, '/api/helpdesk/tickets')).status).toBe(200);
  });

  it('past the queue limit answers 503 with Retry-After and an error; stopping refuses what waits', async () => {
    const stalled = new ReadPool({ file: file(), size: 1, maxWaiting: 1, inlineRows: 0, workerUrl: new URL('../fixtures/read-workers/stall.mjs', import.meta.url) });
    const real = replaceReadPool(server.ctx, stalled);
    try {
      const until = async (ok: () => boolean) => {
        while (!ok()) await new Promise((r) => setTimeout(r, 10));
      };
      const running = fetchAs(owner, '/api/ledger/journal.csv');
      await until(() => stalled.load.running === 1);
      const waiting = fetchAs(owner, '/api/helpdesk/tickets');
      await until(() => stalled.load.waiting === 1);
      const refused = await fetchAs(owner, '/api/ledger/journal.csv');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect((await refused.json()).error).toMatch(/Too many long reads/);
      // Other requests are answered all along.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      await stalled.close();
      for (const res of await Promise.all([running, waiting])) {
        expect(res.status).toBe(503);
        expect((await res.json()).error).toBeTruthy();
      }
    } finally {
      if (real) replaceReadPool(server.ctx, real);
      await stalled.close();
    }
  });
});
