// Sync benchmark (`npm run bench sync`): push and pull throughput of the hosted instance on
// PGlite against plain batched SQL on the same PGlite in the same run, the cost of change
// capture on a device (linked vs unlinked entity, same server), and a new device's initial
// sync. Prints figures and ratios only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { startHosted } from '../../server/hosted/main.js';
import { startTestServer } from '../helpers/server.js';
import { link, Device } from '../hosted/client.js';
import type { Change } from '../../server/sync/protocol.js';

const PUSH_N = Number(process.env.SYNC_BENCH_PUSH ?? 5000);
const JOIN_N = Number(process.env.SYNC_BENCH_JOIN ?? 20_000);
const CAPTURE_N = Number(process.env.SYNC_BENCH_CAPTURE ?? 2000);

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en');

function ticketChange(device: Device, entityId: string, i: number): Change {
  const id = uuidv4();
  const now = new Date().toISOString();
  return device.change('helpdesk_tickets', id, {
    id,
    entity_id: entityId,
    ticket_number: `BENCH-${i}`,
    subject: `Benchmark ticket ${i}`,
    description: null,
    status: 'new',
    priority: 'normal',
    channel: 'api',
    contact_email: null,
    contact_name: null,
    category_id: null,
    created_by: null,
    assigned_to: null,
    search_text: `benchmark ticket ${i}`,
    created_at: now,
    updated_at: now,
    first_response_at: null,
    resolved_at: null,
    closed_at: null,
  });
}

export default async function syncBench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-sync-bench-'));
  const hosted = await startHosted({ port: 0, dataDir: dir, logLevel: 'silent' });
  try {
    // Push: N changes in batches of 500 over HTTP, vs the same rows inserted by plain batched SQL.
    const { device } = await link(hosted.url);
    const entityId = device.enrolment.entity.id;
    const changes = Array.from({ length: PUSH_N }, (_, i) => ticketChange(device, entityId, i));
    let start = performance.now();
    for (let i = 0; i < changes.length; i += 500) {
      const res = await device.push(changes.slice(i, i + 500));
      if (res.status !== 200) throw new Error(`push ${res.status}`);
    }
    const pushMs = performance.now() - start;
    const db = hosted.ctx.store.db;
    await db.execute(sql`create table bench_plain (entity_id uuid, seq bigint, id uuid, columns jsonb, primary key (entity_id, seq))`);
    start = performance.now();
    for (let i = 0; i < changes.length; i += 500) {
      const batch = changes.slice(i, i + 500);
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into bench_plain (entity_id, seq, id, columns) select ${entityId}::uuid, s, i, c from jsonb_to_recordset(${JSON.stringify(batch.map((c, k) => ({ s: i + k + 1, i: c.id, c: c.columns })))}::jsonb) as x(s bigint, i uuid, c jsonb)`,
        );
      });
    }
    const plainMs = performance.now() - start;
    console.log(`push  ${PUSH_N} changes: ${rate(PUSH_N, pushMs)} changes/s (${Math.round(pushMs)} ms); plain batched insert ${rate(PUSH_N, plainMs)} rows/s; ratio ${(plainMs / pushMs).toFixed(2)}`);

    // Pull: the whole log by cursor, vs a plain ordered select of the same rows.
    start = performance.now();
    const pulled = await device.pullAll();
    const pullMs = performance.now() - start;
    start = performance.now();
    await db.execute(sql`select * from changes where entity_id = ${entityId} order by seq`);
    const selectMs = performance.now() - start;
    console.log(`pull  ${pulled.changes.length} changes: ${rate(pulled.changes.length, pullMs)} changes/s (${Math.round(pullMs)} ms); plain select ${rate(PUSH_N, selectMs)} rows/s; ratio ${(selectMs / pullMs).toFixed(2)}`);

    // Capture on a device: ticket creates through the API for a linked and an unlinked entity.
    const server = await startTestServer();
    try {
      const linkedOwner = await server.signup();
      const plainOwner = await server.signup();
      const linked = await linkedOwner.post('/api/sync/link', { hostedUrl: hosted.url, email: linkedOwner.email, password: linkedOwner.password });
      if (linked.status !== 201) throw new Error(`link ${linked.status}`);
      const creates = async (c: typeof linkedOwner) => {
        const t0 = performance.now();
        for (let i = 0; i < CAPTURE_N; i++) await c.post('/api/helpdesk/tickets', { subject: `Capture ${i}` });
        return performance.now() - t0;
      };
      const unlinkedMs = await creates(plainOwner);
      const linkedMs = await creates(linkedOwner);
      console.log(`capture ${CAPTURE_N} ticket creates over HTTP: linked ${rate(CAPTURE_N, linkedMs)}/s, unlinked ${rate(CAPTURE_N, unlinkedMs)}/s; ratio ${(unlinkedMs / linkedMs).toFixed(2)}`);
    } finally {
      await server.close();
    }

    // Initial sync: a new device joins an entity of JOIN_N rows (pull + apply + capture off).
    const big = await link(hosted.url);
    const bigEntity = big.device.enrolment.entity.id;
    for (let i = 0; i < JOIN_N; i += 500) await big.device.push(Array.from({ length: Math.min(500, JOIN_N - i) }, (_, k) => ticketChange(big.device, bigEntity, i + k)));
    const code = (await fetch(`${hosted.url}/sync/v1/devices/codes`, { method: 'POST', headers: { authorization: `Bearer ${big.device.token}` } }).then((r) => r.json())) as { code: string };
    const fresh = await startTestServer();
    try {
      start = performance.now();
      const joined = await fresh.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.code, email: big.input.email, password: big.input.password });
      const joinMs = performance.now() - start;
      if (joined.status !== 201) throw new Error(`join ${joined.status} ${JSON.stringify(joined.body)}`);
      const n = (fresh.ctx.sqlite.prepare('select count(*) as n from helpdesk_tickets where entity_id = ?').get(bigEntity) as { n: number }).n;
      console.log(`initial sync of ${n} rows to a new device: ${Math.round(joinMs)} ms (${rate(n, joinMs)} rows/s; 100,000 rows ≈ ${((100_000 / n) * joinMs / 1000).toFixed(1)} s)`);
    } finally {
      await fresh.close();
    }
  } finally {
    await hosted.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
