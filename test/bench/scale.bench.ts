// Scale benchmark: one entity with a large journal, loaded through the batch route, then the
// reads a business asks for every day (trial balance, balance sheet, a year's profit and loss,
// the journal's first page) over HTTP, beside the plain SQL question on the same SQLite file in
// the same run. Prints figures and ratios only.
//
// SCALE_EVENTS sets the size: 3 journal lines per event; the default (100,000 events, 300,000
// lines) loads in one to three minutes here; SCALE_EVENTS=333334 is the issue's 1,000,000 lines.
// SCALE_TICKETS (default 20,000) tickets for the list and its searches, with SCALE_MESSAGES
// messages among them (default 5 a ticket); SCALE_DOCUMENTS documents with their PDF text (default 2,000); the ledger's search and the
// top bar's GET /api/search read what is loaded.
// SCALE_FULL=1 loads the issue's sizes: 1,000,000 journal lines, 200,000 tickets with 1,000,000
// messages, 20,000 documents (takes long: not for a shared machine). Then /api/health p50/p99
// alone and while reports and exports run (SCALE_HEALTH_MS per phase, SCALE_LOAD_CLIENTS clients).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { startTestServer } from '../helpers/server.js';
import { WORKER_POST } from './worker-post.js';
import { healthUnderLoad } from './health-under-load.js';

const FULL = process.env.SCALE_FULL === '1';
const EVENTS = Number(process.env.SCALE_EVENTS ?? (FULL ? 333_334 : 100_000));
const BATCH = 1000;
const RUNS = Number(process.env.SCALE_RUNS ?? 7);
/** Business dates spread over three years from here, a few events per day more or less. */
const START = Date.parse('2023-01-01T00:00:00.000Z');
const DAYS = 3 * 365;

/** The batch loader, in a worker thread (the other core): one batch request at a time. */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, key, entityId, total, batchSize, start, days } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(url);
${WORKER_POST}
const TYPES = [
  (i) => ({ type: 'invoice_created', payload: { invoiceNumber: 'INV-' + i, currency: 'USD', netAmount: (100 + (i % 900)) + '.00', taxAmount: ((i % 50) + 1) + '.25' } }),
  (i) => ({ type: 'bill_received', payload: { billNumber: 'BILL-' + i, currency: 'USD', netAmount: (40 + (i % 300)) + '.10', taxAmount: ((i % 20) + 1) + '.00' } }),
  (i) => ({ type: 'expense_recorded', payload: { description: 'Expense ' + i, currency: 'USD', netAmount: (5 + (i % 90)) + '.99', taxAmount: '1.00' } }),
  (i) => ({ type: 'payment_received', payload: { reference: 'PAY-' + i, currency: 'EUR', netAmount: (10 + (i % 500)) + '.00', taxAmount: '2.00' } }),
];
const ev = (i) => {
  const at = new Date(start + Math.floor((i / total) * days * 86400000) + (i % 86400) * 1000).toISOString();
  return { ...TYPES[i % TYPES.length](i), timestamp: at, idempotencyKey: 'scale-' + i };
};
(async () => {
  const t0 = performance.now();
  let failures = 0;
  for (let from = 0; from < total; from += batchSize) {
    const events = [];
    for (let i = from; i < Math.min(total, from + batchSize); i++) events.push(ev(i));
    const r = await post('/api/ledger/events/batch', { entityId, events });
    if (r.status !== 200) failures += events.length;
    else for (const x of JSON.parse(r.body).results) if (x.status !== 201) failures++;
  }
  parentPort.postMessage({ ms: performance.now() - t0, failures });
  agent.destroy();
})();
`;

export function load(url: string, key: string, entityId: string): Promise<{ ms: number; failures: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { url, key, entityId, total: EVENTS, batchSize: BATCH, start: START, days: DAYS } });
    worker.once('message', (m: { ms: number; failures: number }) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const TICKETS = Number(process.env.SCALE_TICKETS ?? (FULL ? 200_000 : 20_000));
const MESSAGES = Number(process.env.SCALE_MESSAGES ?? (FULL ? 1_000_000 : TICKETS * 5));
const DOCUMENTS = Number(process.env.SCALE_DOCUMENTS ?? (FULL ? 20_000 : 2_000));
const HEALTH_MS = Number(process.env.SCALE_HEALTH_MS ?? 5000);
const LOAD_CLIENTS = Number(process.env.SCALE_LOAD_CLIENTS ?? 2);
/** The messages of ticket i: MESSAGES spread evenly over the tickets. */
const messagesOf = (i: number) => Math.floor(MESSAGES / TICKETS) + (i < MESSAGES % TICKETS ? 1 : 0);
const WORDS = ['printer', 'invoice', 'refund', 'login', 'password', 'delivery', 'broken', 'duplicate', 'late', 'missing', 'order', 'account', 'screen', 'cable', 'upgrade', 'warranty'];

/**
 * Tickets and messages, inserted with SQL in one transaction (a ticket per POST would take longer
 * than the journal): the search index's triggers run for every row as they do for the API's.
 * Skipped when the entity has tickets already (a kept data dir). Returns the time taken, or 0.
 */
export function loadTickets(sqlite: Database.Database, entityId: string): number {
  if (TICKETS === 0 || sqlite.prepare('select 1 from helpdesk_tickets where entity_id = ? limit 1').get(entityId)) return 0;
  const started = performance.now();
  const ticket = sqlite.prepare(
    `insert into helpdesk_tickets (id, entity_id, ticket_number, subject, description, status, priority, channel, contact_email, contact_name, search_text, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'open', 'normal', 'email', ?, ?, ?, ?, ?)`,
  );
  const message = sqlite.prepare(`insert into helpdesk_messages (id, entity_id, ticket_id, author_type, author_name, body, is_internal, created_at) values (?, ?, ?, 'customer', ?, ?, 0, ?)`);
  const word = (i: number) => WORDS[i % WORDS.length];
  sqlite.transaction(() => {
    for (let i = 0; i < TICKETS; i++) {
      const id = crypto.randomUUID();
      const at = new Date(START + i * 60_000).toISOString();
      const subject = `The ${word(i)} ${word(i * 7 + 3)} problem #${i}`;
      ticket.run(id, entityId, `SCALE-${i}`, subject, `Customer ${i} writes about the ${word(i * 3 + 1)}.`, `c${i}@example.com`, `Customer ${i}`, subject.toLowerCase(), at, at);
      for (let m = 0; m < messagesOf(i); m++) message.run(crypto.randomUUID(), entityId, id, `Customer ${i}`, `Message ${m} about the ${word(i * 11 + m * 5)} and the ${word(i + m * 13 + 7)}, number ${i * 10 + m}.`, at);
    }
  })();
  return performance.now() - started;
}

/**
 * Documents and their PDFs' text, inserted with SQL in one transaction: reading 20,000 PDFs with
 * pdfjs would take longer than the whole run, and the search reads the index, not the PDFs. The
 * rows are inserted as the upload and the text worker insert them (documents, document_texts), so
 * the index's triggers do what they do for real uploads. Skipped when the entity has documents.
 */
/** The file bytes document `i` names by their sha256 (a stand-in for its PDF: what syncs a file is its hash). */
export const documentBytes = (i: number) => Buffer.from(`scale-document-${i}`);

export function loadDocuments(sqlite: Database.Database, entityId: string): number {
  if (DOCUMENTS === 0 || sqlite.prepare('select 1 from documents where entity_id = ? limit 1').get(entityId)) return 0;
  const started = performance.now();
  const doc = sqlite.prepare(
    `insert into documents (id, entity_id, folder_id, name, sha256, size, page_count, pages, created_at, updated_at) values (?, ?, null, ?, ?, 1000, 2, '[{"width":612,"height":792},{"width":612,"height":792}]', ?, ?)`,
  );
  const text = sqlite.prepare('insert into document_texts (entity_id, sha256, text, failed, extracted_at) values (?, ?, ?, 0, ?)');
  const word = (i: number) => WORDS[i % WORDS.length];
  sqlite.transaction(() => {
    for (let i = 0; i < DOCUMENTS; i++) {
      const sha = crypto.createHash('sha256').update(documentBytes(i)).digest('hex');
      const at = new Date(START + i * 60_000).toISOString();
      const body = Array.from({ length: 40 }, (_, k) => `Clause ${k}: the ${word(i * 5 + k)} terms of the ${word(i + k * 3)} agreement number ${i}.`).join('\n');
      text.run(entityId, sha, body, at);
      doc.run(crypto.randomUUID(), entityId, `${word(i * 13)} contract ${i}.pdf`, sha, at, at);
    }
  })();
  return performance.now() - started;
}

/**
 * One GET on a connection of its own: a kept-alive one can be closed by the server while the
 * plain SQL runs (its keep-alive timeout), and a request sent on it then fails.
 */
function get(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

/** Median of RUNS timed calls after one warm-up call. */
async function median(fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

export default async function scaleBench() {
  // SCALE_DATA_DIR keeps the loaded data (and reads it again on the next run instead of loading).
  const kept = process.env.SCALE_DATA_DIR;
  const keyFile = kept && path.join(kept, 'scale-bench.json');
  const server = await startTestServer(kept ? { dataDir: kept } : {});
  try {
    let client: { key: string };
    let entityId: string;
    if (keyFile && fs.existsSync(keyFile)) {
      ({ key: client, entityId } = JSON.parse(fs.readFileSync(keyFile, 'utf8')) as { key: { key: string }; entityId: string });
    } else {
      const user = await server.signup();
      client = await server.apiKeyClient(user, ['read:ledger', 'write:ledger', 'read:helpdesk', 'read:documents']);
      entityId = user.entityId;
      const loaded = await load(server.url, client.key, entityId);
      console.log(`${EVENTS.toLocaleString('en')} events through the batch route in ${(loaded.ms / 1000).toFixed(1)} s (${Math.round((EVENTS / loaded.ms) * 1000).toLocaleString('en')} events/s, ${loaded.failures} not 201)`);
      if (keyFile) fs.writeFileSync(keyFile, JSON.stringify({ key: { key: client.key }, entityId }));
    }
    const lines = (server.ctx.sqlite.prepare('select count(*) as n from ledger_lines where entity_id = ?').get(entityId) as { n: number }).n;
    console.log(`${lines.toLocaleString('en')} journal lines in the entity`);
    const tickets = loadTickets(server.ctx.sqlite, entityId);
    if (tickets) console.log(`${TICKETS.toLocaleString('en')} tickets with ${MESSAGES.toLocaleString('en')} messages inserted with SQL (the search index kept by its triggers) in ${(tickets / 1000).toFixed(1)} s`);
    const documents = loadDocuments(server.ctx.sqlite, entityId);
    if (documents) console.log(`${DOCUMENTS.toLocaleString('en')} documents with 40 lines of text each inserted with SQL (the search index kept by its triggers) in ${(documents / 1000).toFixed(1)} s`);
    server.ctx.sqlite.pragma('wal_checkpoint(TRUNCATE)');

    // Plain SQL: the same questions asked of the same file on a connection of its own.
    const plain = new Database(path.join(server.dataDir, 'bureau.db'), { readonly: true });
    const asOf = '2030-01-01T00:00:00.000Z';
    const from = '2024-01-01T00:00:00.000Z';
    const to = '2025-01-01T00:00:00.000Z';
    const sums = plain.prepare(
      `select l.account_id, l.currency, l.side, sum(cast(l.amount as integer)) as total from ledger_lines l join ledger_entries e on e.id = l.entry_id
       where l.entity_id = ? and e.effective_at > ? and e.effective_at <= ? group by l.account_id, l.currency, l.side`,
    );
    const page = plain.prepare('select * from ledger_entries where entity_id = ? order by effective_at desc, id desc limit 50');
    const pageLines = plain.prepare('select * from ledger_lines where entry_id = ? order by position');
    const ticketColumns = 'id, ticket_number, subject, description, status, priority, created_at';
    const ticketPage = plain.prepare(`select ${ticketColumns} from helpdesk_tickets where entity_id = ? order by created_at desc, id desc limit 50`);
    const ticketSearch = plain.prepare(
      `select ${ticketColumns} from helpdesk_tickets where entity_id = ? and id in (select d.ticket_id from helpdesk_search s join helpdesk_search_docs d on d.doc = s.rowid where helpdesk_search match ?) order by created_at desc, id desc limit 50`,
    );
    const documentSearch = plain.prepare(
      `select * from documents where entity_id = ? and id in (select s.document_id from documents_search f join documents_search_docs s on s.doc = f.rowid where documents_search match ? and s.entity_id = ?) order by created_at desc, id desc`,
    );
    const documentSearchPage = plain.prepare(
      `select * from documents where entity_id = ? and id in (select s.document_id from documents_search f join documents_search_docs s on s.doc = f.rowid where documents_search match ? and s.entity_id = ?) order by created_at desc, id desc limit 50`,
    );
    const eventSearch = plain.prepare(
      `select * from ledger_events where entity_id = ? and id in (select s.event_id from ledger_search f join ledger_search_docs s on s.doc = f.rowid where ledger_search match ? and s.entity_id = ?) order by created_at desc, id desc limit 50`,
    );
    const eventSearchCount = plain.prepare(
      `select count(*) from ledger_events where entity_id = ? and id in (select s.event_id from ledger_search f join ledger_search_docs s on s.doc = f.rowid where ledger_search match ? and s.entity_id = ?)`,
    );
    // The top bar's question in plain SQL: the newest matches of each area, 200 at most, ranked.
    const recent = (fts: string, docs: string) =>
      plain.prepare(`select f.rowid, f.rank from ${fts} f join ${docs} s on s.doc = f.rowid where ${fts} match ? and s.entity_id = ? order by f.rowid desc limit 200`);
    const topBar = [recent('helpdesk_search', 'helpdesk_search_docs'), recent('documents_search', 'documents_search_docs'), recent('ledger_search', 'ledger_search_docs')];
    const subjectSearch = plain.prepare(`select ${ticketColumns} from helpdesk_tickets where entity_id = ? and instr(search_text, ?) > 0 order by created_at desc, id desc limit 50`);
    const documentList = plain.prepare('select * from documents where entity_id = ? order by created_at desc');
    const reads: [string, string, () => unknown][] = [
      ['tickets, first page of 50', `/api/helpdesk/tickets?entityId=${entityId}&limit=50`, () => ticketPage.all(entityId)],
      ['tickets, q=refund (full text)', `/api/helpdesk/tickets?entityId=${entityId}&limit=50&q=refund`, () => ticketSearch.all(entityId, '"refund"*')],
      ['tickets, q=two words', `/api/helpdesk/tickets?entityId=${entityId}&limit=50&q=printer%20duplicate`, () => ticketSearch.all(entityId, '"printer"* "duplicate"*')],
      ['documents, q=refund (name, text)', `/api/documents?entityId=${entityId}&q=refund`, () => documentSearch.all(entityId, '"refund"*', entityId)],
      ['documents, q=refund, first page', `/api/documents?entityId=${entityId}&q=refund&limit=50`, () => documentSearchPage.all(entityId, '"refund"*', entityId)],
      ['ledger events, q=invoice', `/api/ledger/events?entityId=${entityId}&q=invoice&pageSize=50`, () => [eventSearch.all(entityId, '"invoice"*', entityId), eventSearchCount.get(entityId, '"invoice"*', entityId)]],
      ['ledger events, q=INV-1234', `/api/ledger/events?entityId=${entityId}&q=INV-1234&pageSize=50`, () => [eventSearch.all(entityId, '"INV"* "1234"*', entityId), eventSearchCount.get(entityId, '"INV"* "1234"*', entityId)]],
      ['top bar search, q=refund', `/api/search?entityId=${entityId}&q=refund`, () => topBar.map((st) => st.all('"refund"*', entityId))],
      ['top bar search, q=invoice', `/api/search?entityId=${entityId}&q=invoice`, () => topBar.map((st) => st.all('"invoice"*', entityId))],
      ['tickets, search=printer', `/api/helpdesk/tickets?entityId=${entityId}&limit=50&search=printer`, () => subjectSearch.all(entityId, 'printer')],
      ['trial balance', `/api/ledger/trial-balance?entityId=${entityId}&asOf=${asOf}`, () => sums.all(entityId, '', asOf)],
      ['balance sheet', `/api/ledger/reports/balance-sheet?entityId=${entityId}&asOf=${asOf}`, () => sums.all(entityId, '', asOf)],
      ['profit and loss, one year', `/api/ledger/reports/profit-and-loss?entityId=${entityId}&from=${from}&to=${to}`, () => sums.all(entityId, from, to)],
      ['journal, first page of 50', `/api/ledger/journal?entityId=${entityId}&page=1&pageSize=50`, () => page.all(entityId).map((e) => pageLines.all((e as { id: string }).id))],
      ['documents, all', `/api/documents?entityId=${entityId}`, () => documentList.all(entityId)],
    ];
    console.log(`median of ${RUNS} after a warm-up; HTTP with an API key, plain SQL on a read-only connection to the same file`);
    for (const [name, url, sql] of reads) {
      let status = 0;
      const httpMs = await median(async () => {
        status = await get(server.url + url, client.key);
      });
      if (status !== 200) throw new Error(`${url}: ${status}`);
      const sqlMs = await median(sql);
      console.log(`${name.padEnd(34)} HTTP ${httpMs.toFixed(1).padStart(8)} ms (${status})   plain SQL ${sqlMs.toFixed(1).padStart(8)} ms   ratio ${(httpMs / sqlMs).toFixed(2)}×`);
    }
    plain.close();

    // Reports and exports over the whole history, over and over, while /api/health is timed.
    const allHeavy = [
      `/api/ledger/journal.csv?entityId=${entityId}&to=${encodeURIComponent(new Date(START + 60 * 86_400_000).toISOString())}`,
      `/api/helpdesk/tickets?entityId=${entityId}`,
      `/api/ledger/reports/profit-and-loss?entityId=${entityId}&from=2023-01-01T00:00:00.000Z&to=${asOf}`,
      `/api/ledger/trial-balance?entityId=${entityId}&asOf=${asOf}`,
      `/api/ledger/reports/balance-sheet?entityId=${entityId}&asOf=${asOf}`,
      `/api/documents?entityId=${entityId}`,
    ];
    // SCALE_LOAD=csv,tickets narrows the load to the reads whose path has one of these words (which one holds health up?).
    const heavy = allHeavy.filter((u) => !process.env.SCALE_LOAD || process.env.SCALE_LOAD.split(',').some((w) => u.includes(w)));
    const h = await healthUnderLoad({ url: server.url, key: client.key, urls: heavy, ms: HEALTH_MS, concurrency: LOAD_CLIENTS });
    const line = (name: string, f: typeof h.idle) =>
      console.log(`/api/health ${name.padEnd(30)} p50 ${f.p50.toFixed(2).padStart(7)} ms   p99 ${f.p99.toFixed(2).padStart(7)} ms   max ${f.max.toFixed(1).padStart(7)} ms   (${f.count} requests${f.failed ? `, ${f.failed} not 200` : ''})`);
    line('alone', h.idle);
    line(`under report load (${LOAD_CLIENTS} clients)`, h.loaded);
    console.log(`report load: ${Object.entries(h.statuses).map(([status, n]) => `${n} × ${status}`).join(', ')} of ${heavy.map((u) => u.split('?')[0]).join(', ')}`);
  } finally {
    await server.close();
  }
}
