// Ledger benchmark: posts N business events through the posting engine (validation, rule,
// account resolution, invariants, journal, outbox) and compares with plain SQLite inserts of
// the same rows in the same run, on the same database. Prints figures and ratios only.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startTestServer } from '../helpers/server.js';
import { createEntity } from '../../server/auth/entities.js';
import { postEvent } from '../../server/ledger/post-event.js';
import { getTrialBalance } from '../../server/ledger/trial-balance.js';
import type { Context } from '../../server/context.js';
import { groupCommitStats } from '../../server/ledger/group-commit.js';
import { WORKER_POST } from './worker-post.js';

const N = Number(process.env.LEDGER_BENCH_N ?? 2000);
/** Events posted over HTTP by the single-event and the batch runs. */
const HTTP_N = Number(process.env.LEDGER_BENCH_HTTP_N ?? 4000);
const CLIENTS = 32;
const BATCH = 1000;

/**
 * The HTTP load generator, in a worker thread (the other core) so that the client's work does
 * not run on the server's event loop: keep-alive connections, `concurrency` clients, each
 * sending its next request when its previous one was answered.
 */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, key, entityId, mode, total, concurrency, batchSize, prefix } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
${WORKER_POST}
const ev = (i) => ({ type: 'invoice_created', payload: { invoiceNumber: prefix + i, currency: 'USD', netAmount: (100 + (i % 900)) + '.00', taxAmount: ((i % 50) + 1) + '.25' }, idempotencyKey: prefix + i });
let next = 0;
let failures = 0;
async function single() {
  for (;;) {
    const i = next++;
    if (i >= total) return;
    const r = await post('/api/ledger/events', { entityId, ...ev(i) });
    if (r.status !== 201) failures++;
  }
}
async function batch() {
  for (;;) {
    const start = next;
    next += batchSize;
    if (start >= total) return;
    const events = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) events.push(ev(i));
    const r = await post('/api/ledger/events/batch', { entityId, events });
    if (r.status !== 200) failures += events.length;
    else for (const x of JSON.parse(r.body).results) if (x.status !== 201) failures++;
  }
}
(async () => {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, mode === 'single' ? single : batch));
  parentPort.postMessage({ ms: performance.now() - t0, failures });
  agent.destroy();
})();
`;

interface HttpRun {
  url: string;
  key: string;
  entityId: string;
  mode: 'single' | 'batch';
  total: number;
  concurrency: number;
  batchSize: number;
  prefix: string;
}

function httpLoad(run: HttpRun): Promise<{ ms: number; failures: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT_CODE, { eval: true, workerData: run });
    worker.once('message', (m: { ms: number; failures: number }) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

function eventInput(i: number) {
  return { type: 'invoice_created', payload: { invoiceNumber: `INV-${i}`, currency: 'USD', netAmount: `${100 + (i % 900)}.00`, taxAmount: `${(i % 50) + 1}.25` }, idempotencyKey: `bench-${i}` };
}

function postThroughEngine(ctx: Context, entityId: string): number {
  const start = performance.now();
  for (let i = 0; i < N; i++) postEvent(ctx, entityId, eventInput(i));
  return performance.now() - start;
}

/** The same rows (event, entry, 3 lines, outbox), inserted with prepared statements, one transaction per event. */
function plainInserts(ctx: Context, entityId: string, accountIds: string[], keyPrefix: string): number {
  const db = ctx.sqlite;
  const insEvent = db.prepare(
    `insert into ledger_events (id, entity_id, type, timestamp, payload, source, correlation_id, idempotency_key, input_hash, schema_version, metadata, posting_status, posting_error, reclassified_from, reclassified_to, decided_by, decided_at, created_at, updated_at)
     values (?, ?, 'invoice_created', ?, ?, 'api', null, ?, ?, '1', '{}', 'posted', null, null, null, null, null, ?, ?)`,
  );
  const insEntry = db.prepare(`insert into ledger_entries (id, entity_id, event_id, kind, reverses_entry_id, description, effective_at, created_at) values (?, ?, ?, 'posting', null, ?, ?, ?)`);
  const insLine = db.prepare(`insert into ledger_lines (id, entity_id, entry_id, position, account_id, currency, side, amount, memo) values (?, ?, ?, ?, ?, 'USD', ?, ?, null)`);
  const insOutbox = db.prepare(`insert into outbox (id, entity_id, type, data, created_at) values (?, ?, 'ledger.event.posted', ?, ?)`);
  const one = db.transaction((i: number) => {
    const now = new Date().toISOString();
    const eventId = ctx.ids.next();
    const entryId = ctx.ids.next();
    const input = eventInput(i);
    insEvent.run(eventId, entityId, now, JSON.stringify(input.payload), `${keyPrefix}-${i}`, 'x'.repeat(64), now, now);
    insEntry.run(entryId, entityId, eventId, `Invoice INV-${i}`, now, now);
    insLine.run(ctx.ids.next(), entityId, entryId, 0, accountIds[0], 'debit', '12000');
    insLine.run(ctx.ids.next(), entityId, entryId, 1, accountIds[1], 'credit', '10000');
    insLine.run(ctx.ids.next(), entityId, entryId, 2, accountIds[2], 'credit', '2000');
    insOutbox.run(ctx.ids.next(), entityId, JSON.stringify({ eventId }), now);
  });
  const start = performance.now();
  for (let i = 0; i < N; i++) one(i);
  return performance.now() - start;
}

const rate = (ms: number) => `${Math.round((N / ms) * 1000).toLocaleString('en')} events/s`;

export default async function ledgerBench() {
  const server = await startTestServer();
  try {
    const { ctx } = server;
    const user = await server.signup();
    const entity = (name: string) => createEntity(ctx, user.user.id, name).id;

    // Warm-up (JIT, statement caches), not measured.
    const warm = entity('warm-up');
    for (let i = 0; i < 200; i++) postEvent(ctx, warm, eventInput(i));

    const plainEntity = entity('plain');
    getTrialBalance(ctx, plainEntity); // seeds the chart
    const codes = ['1100', '4000', '2200'];
    const accountIds = codes.map((code) => (ctx.sqlite.prepare('select id from ledger_accounts where entity_id = ? and code = ?').get(plainEntity, code) as { id: string }).id);
    const plainMs = plainInserts(ctx, plainEntity, accountIds, 'plain');
    ctx.sqlite.pragma('synchronous = FULL');
    const plainFullMs = plainInserts(ctx, plainEntity, accountIds, 'plain-full');
    ctx.sqlite.pragma('synchronous = NORMAL');

    // The engine commits its writes with synchronous=FULL itself (server/ledger/setup.ts).
    const engineMs = postThroughEngine(ctx, entity('engine'));

    const replayEntity = entity('replay');
    for (let i = 0; i < N; i++) postEvent(ctx, replayEntity, eventInput(i));
    const replayStart = performance.now();
    for (let i = 0; i < N; i++) postEvent(ctx, replayEntity, eventInput(i));
    const replayMs = performance.now() - replayStart;

    // Over HTTP, through the group commit, with an API key (as integrations post).
    const httpEntity = user.entityId;
    const key = await server.apiKeyClient(user, ['read:ledger', 'write:ledger']);
    const load = (mode: 'single' | 'batch', total: number, concurrency: number, prefix: string) => httpLoad({ url: server.url, key: key.key, entityId: httpEntity, mode, total, concurrency, batchSize: BATCH, prefix });
    await load('single', 500, CLIENTS, 'warm-single-'); // warm-up, not measured
    await load('batch', 2000, 1, 'warm-batch-');
    const stats0 = groupCommitStats(ctx);
    const single = await load('single', HTTP_N, CLIENTS, 'single-');
    const stats1 = groupCommitStats(ctx);
    const batched = await load('batch', HTTP_N, 1, 'batch-');
    const httpTb = getTrialBalance(ctx, httpEntity);
    const balanced = httpTb.totals.every((t) => t.debit === t.credit);
    const plainFullRate = (N / plainFullMs) * 1000;
    const httpRate = (n: number, ms: number) => (n / ms) * 1000;
    const singleRate = httpRate(HTTP_N, single.ms);
    const batchRate = httpRate(HTTP_N, batched.ms);

    const tbStart = performance.now();
    const tb = getTrialBalance(ctx, replayEntity);
    const tbMs = performance.now() - tbStart;

    console.log(`N = ${N} invoice_created events (3 journal lines each), one transaction per event, WAL`);
    console.log(`plain inserts, synchronous=NORMAL    ${plainMs.toFixed(0).padStart(6)} ms  ${rate(plainMs)}`);
    console.log(`plain inserts, synchronous=FULL      ${plainFullMs.toFixed(0).padStart(6)} ms  ${rate(plainFullMs)}  FULL/NORMAL ${(plainFullMs / plainMs).toFixed(2)}×`);
    console.log(`posting engine (FULL, as shipped)    ${engineMs.toFixed(0).padStart(6)} ms  ${rate(engineMs)}  ratio to plain FULL ${(engineMs / plainFullMs).toFixed(2)}×, to plain NORMAL ${(engineMs / plainMs).toFixed(2)}×`);
    console.log(`idempotent replays (same key+input)  ${replayMs.toFixed(0).padStart(6)} ms  ${rate(replayMs)}  ratio to posting ${(replayMs / engineMs).toFixed(2)}×`);
    const groups = stats1.transactions - stats0.transactions;
    console.log(`HTTP, ${CLIENTS} clients, single POSTs    ${single.ms.toFixed(0).padStart(6)} ms  ${Math.round(singleRate).toLocaleString('en')} events/s  = ${(singleRate / plainFullRate).toFixed(2)}× the plain FULL rate  (${HTTP_N} events in ${groups} commits, ${(HTTP_N / groups).toFixed(1)} per commit; ${single.failures} not 201; goal ≥ 1,500/s)`);
    console.log(`HTTP, batches of ${BATCH}              ${batched.ms.toFixed(0).padStart(6)} ms  ${Math.round(batchRate).toLocaleString('en')} events/s  = ${(batchRate / plainFullRate).toFixed(2)}× the plain FULL rate  (${batched.failures} not 201; goal ≥ 5,000/s)`);
    console.log(`HTTP runs' journal balanced: ${balanced} (${httpTb.totals.map((t) => `${t.currency} ${t.debit}/${t.credit}`).join(', ')})`);
    console.log(`trial balance over ${N * 3} lines       ${tbMs.toFixed(1).padStart(6)} ms  (totals ${tb.totals.map((t) => `${t.currency} ${t.debit}/${t.credit}`).join(', ')})`);
  } finally {
    await server.close();
  }
}
