// Stall benchmark: how long the API's event loop is held while a long job runs on a large entity
// (the business export, a backup). The server runs on this thread; /api/health is probed from a
// worker thread while the job runs, and the loop's delay is sampled (monitorEventLoopDelay).
// Sizes as in scale.bench.ts (SCALE_EVENTS, SCALE_TICKETS, SCALE_MESSAGES, SCALE_DOCUMENTS).
// Then the entity's synced rows are put on a hosted instance (in this process; its PGlite in a
// thread of its own) as its current rows, and two snapshot phases run: the hosted instance building
// a snapshot for a device (read and discarded here), and a new device joining (download, then the
// apply in slices). Both run on this thread, so the join's figure holds the hosted instance's
// serving of the pages too. STALL_SNAPSHOT=0
// leaves them out. Prints figures only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Context } from '../../server/context.js';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { rowIdSql, rowJson } from '../../server/sync/capture.js';
import { engineOf } from '../../server/sync/engine-state.js';
import { call, link, linkInput } from '../hosted/client.js';
import { startTestServer } from '../helpers/server.js';
import { exportEntity } from '../../server/backup/export-entity.js';
import { runBackup } from '../../server/backup/run-backup.js';
import { documentBytes, load, loadDocuments, loadTickets } from './scale.bench.js';

/** Sequential GETs of /api/health until told to stop; posts the latencies. */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let stopping = false;
parentPort.on('message', () => { stopping = true; });
const once = () => new Promise((resolve, reject) => {
  const t = performance.now();
  http.get(workerData.url + '/api/health', { agent }, (res) => {
    res.resume();
    res.on('end', () => resolve(performance.now() - t));
  }).on('error', reject);
});
(async () => {
  const times = [];
  while (!stopping) times.push(await once());
  agent.destroy();
  parentPort.postMessage(times);
})();
`;

/** The longest gap between ticks of a 10 ms timer until `stop()`: how long this thread's loop was held at once. */
export function tickGaps(): { stop(): number } {
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  return {
    stop() {
      clearInterval(ticker);
      return Math.max(gap, performance.now() - last);
    },
  };
}

/** Runs `job` while /api/health is probed and the loop's delay sampled; prints one line. */
export async function measureStall(name: string, url: string, job: () => Promise<unknown>): Promise<void> {
  const prober = new Worker(PROBER, { eval: true, workerData: { url } });
  const times = new Promise<number[]>((resolve, reject) => {
    prober.once('message', resolve);
    prober.once('error', reject);
  });
  await new Promise((r) => setTimeout(r, 200));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const ticks = tickGaps();
  const t = performance.now();
  await job();
  const gap = ticks.stop();
  const ms = performance.now() - t;
  delay.disable();
  prober.postMessage('stop');
  const sorted = (await times).sort((a, b) => a - b);
  void prober.terminate();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const loopMax = delay.max / 1e6;
  console.log(
    `${name.padEnd(28)} ${(ms / 1000).toFixed(1).padStart(6)} s   longest tick gap ${gap.toFixed(0).padStart(6)} ms, loop delay max ${loopMax.toFixed(0).padStart(6)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(0).padStart(5)} ms   /api/health p50 ${at(0.5).toFixed(1)} ms p99 ${at(0.99).toFixed(1)} ms max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${sorted.length} requests)`,
  );
}

/**
 * The entity's synced rows as the hosted instance's current rows (one stamp each, as if pushed),
 * straight into its store: pushing millions of changes would take hours. Returns the linking
 * device's token (it makes add-device codes) and its account's credentials (a join uses them).
 */
async function seedHosted(ctx: Context, hosted: RunningHosted, entityId: string): Promise<{ token: string; email: string; password: string }> {
  const { device, input } = await link(hosted.url, linkInput({ entityId, entityName: 'Scale' }));
  const { tables, capture } = engineOf(ctx);
  const stamp = capture.stamp();
  const db = hosted.ctx.store.db;
  let seq = 0;
  const put = async (table: string, fact: boolean, batch: { r: string; d: unknown }[]) => {
    await db.execute(sql`insert into rows (entity_id, table_name, row_id, data, stamps, is_fact, seq)
      select ${entityId}::uuid, ${table}, x->>'r', x->'d', to_jsonb(${stamp}::text), ${fact}, ${seq}::bigint + n
      from jsonb_array_elements(${JSON.stringify(batch)}::jsonb) with ordinality as t(x, n)
      on conflict (entity_id, table_name, row_id) do nothing`);
    seq += batch.length;
  };
  for (const table of tables) {
    let batch: { r: string; d: unknown }[] = [];
    const rows = ctx.sqlite.prepare(`SELECT ${rowIdSql(table, 'NEW')} AS r, ${rowJson(table, 'NEW')} AS d FROM "${table.name}" AS NEW WHERE entity_id = ?`).iterate(entityId) as Iterable<{ r: string; d: string }>;
    for (const row of rows) {
      batch.push({ r: String(row.r), d: JSON.parse(row.d) });
      if (batch.length === 5000) {
        await put(table.name, table.kind === 'fact', batch);
        batch = [];
      }
    }
    if (batch.length > 0) await put(table.name, table.kind === 'fact', batch);
  }
  await db.execute(sql`update entities set last_seq = greatest(last_seq, ${seq}) where id = ${entityId}::uuid`);
  // The files the rows name, as a device uploads them before its rows (a join fetches them first).
  let files = 0;
  for (const table of tables) {
    for (const column of table.blobs) {
      const shas = ctx.sqlite.prepare(`SELECT DISTINCT "${column}" AS sha FROM "${table.name}" WHERE entity_id = ? AND "${column}" IS NOT NULL`).all(entityId) as { sha: string }[];
      for (const { sha } of shas) {
        if (!ctx.blobs.has(sha)) continue;
        const res = await fetch(`${hosted.url}/sync/v1/blobs/${sha}`, { method: 'PUT', headers: { authorization: `Bearer ${device.token}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(ctx.blobs.get(sha)) });
        if (res.status !== 201 && res.status !== 200) throw new Error(`file upload answered ${res.status}`);
        files += 1;
      }
    }
  }
  console.log(`${seq.toLocaleString('en')} rows and ${files.toLocaleString('en')} files on the hosted instance`);
  return { token: device.token, email: input.email, password: input.password };
}

/** The snapshot phases: the hosted instance building one, then a new device joining. */
export async function measureSnapshots(ctx: Context, entityId: string): Promise<void> {
  const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-stall-hosted-'));
  // File transfers unlimited: seeding (and joining) 20,000 documents' files would otherwise wait
  // on the per-device limit of 600 a minute, which is not what this measures.
  const hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent', limits: { blobs: { limit: 1_000_000, windowMs: 60_000, message: 'unlimited' } } });
  const joining = await startTestServer({});
  try {
    const t = performance.now();
    const { token, email, password } = await seedHosted(ctx, hosted, entityId);
    console.log(`hosted instance seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await measureStall('hosted snapshot (PGlite)', hosted.url, async () => {
      const res = await fetch(`${hosted.url}/sync/v1/snapshot`, { headers: { authorization: `Bearer ${token}` } });
      const reader = res.body!.getReader();
      while (!(await reader.read()).done);
    });
    const code = await call(hosted.url, 'POST', '/sync/v1/devices/codes', { token });
    await measureStall('snapshot join (device)', joining.url, async () => {
      const joined = await joining.anon.post('/api/sync/join', { hostedUrl: hosted.url, code: code.body.code, email, password });
      if (joined.status !== 201) console.log(`join answered ${joined.status}: ${JSON.stringify(joined.body)}`);
      const error = joining.ctx.sqlite.prepare('SELECT last_error FROM sync_links WHERE entity_id = ?').get(entityId) as { last_error: string | null } | undefined;
      if (error?.last_error) console.log(`join's first cycle failed: ${error.last_error}`);
    });
  } finally {
    await joining.close();
    await hosted.close();
    fs.rmSync(hostedDir, { recursive: true, force: true });
  }
}

export default async function stallBench() {
  const server = await startTestServer({});
  try {
    const user = await server.signup();
    const client = await server.apiKeyClient(user, ['read:ledger', 'write:ledger']);
    const loaded = await load(server.url, client.key, user.entityId);
    console.log(`events loaded in ${(loaded.ms / 1000).toFixed(1)} s (${loaded.failures} not 201)`);
    loadTickets(server.ctx.sqlite, user.entityId);
    const documents = (server.ctx.sqlite.prepare('select count(*) as n from documents where entity_id = ?').get(user.entityId) as { n: number }).n === 0;
    loadDocuments(server.ctx.sqlite, user.entityId);
    // Their files in the device's store, so a hosted instance seeded from it can serve them to a joining device.
    if (documents) {
      const count = (server.ctx.sqlite.prepare('select count(*) as n from documents where entity_id = ?').get(user.entityId) as { n: number }).n;
      for (let i = 0; i < count; i++) await server.ctx.blobs.putStream((async function* () {
        yield documentBytes(i);
      })());
    }
    server.ctx.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const lines = (server.ctx.sqlite.prepare('select count(*) as n from ledger_lines where entity_id = ?').get(user.entityId) as { n: number }).n;
    console.log(`${lines.toLocaleString('en')} journal lines; figures from a loaded, shared machine`);
    await measureStall('business export', server.url, () => exportEntity(server.ctx, user.entityId));
    await measureStall('backup (manual)', server.url, () => runBackup(server.ctx, 'manual'));
    if (process.env.STALL_SNAPSHOT !== '0') await measureSnapshots(server.ctx, user.entityId);
  } finally {
    await server.close();
  }
}
