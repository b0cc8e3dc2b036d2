// /api/health latency without load and while reports and exports run, for the scale bench. The
// prober and the load each run in a worker thread of their own, so neither the client's work nor
// the other's skews the figures (the server runs on the bench's main thread).
import { Worker } from 'node:worker_threads';

/** Sequential GETs of /api/health on one kept-alive connection for `ms`; posts the latencies. */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, ms } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const once = () => new Promise((resolve, reject) => {
  const t = performance.now();
  http.get(url + '/api/health', { agent }, (res) => {
    res.resume();
    res.on('end', () => resolve([performance.now() - t, res.statusCode]));
  }).on('error', reject);
});
(async () => {
  const times = [];
  let failed = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const [t, status] = await once();
    if (status === 200) times.push(t); else failed++;
  }
  agent.destroy();
  parentPort.postMessage({ times, failed });
})();
`;

/** `concurrency` loops, each GETting the urls in turn (bodies read and dropped) until told to stop. */
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, key, urls, concurrency } = workerData;
let stopping = false;
parentPort.on('message', () => { stopping = true; });
const statuses = {};
const once = (path) => new Promise((resolve) => {
  http.get(base + path, { headers: { authorization: 'Bearer ' + key }, agent: false }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  }).on('error', () => resolve('error'));
});
(async () => {
  await Promise.all(Array.from({ length: concurrency }, async (_, k) => {
    for (let i = k; !stopping; i++) {
      const s = await once(urls[i % urls.length]);
      statuses[s] = (statuses[s] ?? 0) + 1;
    }
  }));
  parentPort.postMessage(statuses);
})();
`;

export interface HealthFigures {
  p50: number;
  p99: number;
  max: number;
  count: number;
  failed: number;
}

function probe(url: string, ms: number): Promise<HealthFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROBER, { eval: true, workerData: { url, ms } });
    worker.once('message', ({ times, failed }: { times: number[]; failed: number }) => {
      const sorted = times.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
      resolve({ p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN, count: sorted.length, failed });
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** Health figures with nothing else running, then while `concurrency` clients GET `urls` (reports, exports) over and over. */
export async function healthUnderLoad(opts: { url: string; key: string; urls: string[]; ms: number; concurrency: number }) {
  const idle = await probe(opts.url, opts.ms);
  const load = new Worker(LOAD, { eval: true, workerData: { base: opts.url, key: opts.key, urls: opts.urls, concurrency: opts.concurrency } });
  const loadDone = new Promise<Record<string, number>>((resolve, reject) => {
    load.once('message', resolve);
    load.once('error', reject);
  });
  // The load gets going before the prober starts counting.
  await new Promise((r) => setTimeout(r, 200));
  const loaded = await probe(opts.url, opts.ms);
  load.postMessage('stop');
  const statuses = await loadDone;
  void load.terminate();
  return { idle, loaded, statuses };
}
