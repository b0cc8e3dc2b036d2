// Stall benchmark: how long the API's event loop is held while a long job runs on a large entity
// (the business export, a backup). The server runs on this thread; /api/health is probed from a
// worker thread while the job runs, and the loop's delay is sampled (monitorEventLoopDelay).
// Sizes as in scale.bench.ts (SCALE_EVENTS, SCALE_TICKETS, SCALE_MESSAGES, SCALE_DOCUMENTS).
// Prints figures only.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startTestServer } from '../helpers/server.js';
import { exportEntity } from '../../server/backup/export-entity.js';
import { runBackup } from '../../server/backup/run-backup.js';
import { load, loadDocuments, loadTickets } from './scale.bench.js';

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

export default async function stallBench() {
  const server = await startTestServer({});
  try {
    const user = await server.signup();
    const client = await server.apiKeyClient(user, ['read:ledger', 'write:ledger']);
    const loaded = await load(server.url, client.key, user.entityId);
    console.log(`events loaded in ${(loaded.ms / 1000).toFixed(1)} s (${loaded.failures} not 201)`);
    loadTickets(server.ctx.sqlite, user.entityId);
    loadDocuments(server.ctx.sqlite, user.entityId);
    server.ctx.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const lines = (server.ctx.sqlite.prepare('select count(*) as n from ledger_lines where entity_id = ?').get(user.entityId) as { n: number }).n;
    console.log(`${lines.toLocaleString('en')} journal lines; figures from a loaded, shared machine`);
    await measureStall('business export', server.url, () => exportEntity(server.ctx, user.entityId));
    await measureStall('backup (manual)', server.url, () => runBackup(server.ctx, 'manual'));
  } finally {
    await server.close();
  }
}
