// Hosted blobs benchmark (`npm run bench hosted-blobs`): on the default PGlite store, how much a
// 25 MB upload raises the hosted process's memory (goal < 100 MB), and how long other tenants'
// pulls take while uploads run (goal p50/p99 < 100 ms) against the same pulls with no upload
// running, measured first in the same run. The instance runs in a child process, as in
// production, so its RSS is its own (the uploading client's buffer is in this process).
// HOSTED_BLOBS_BENCH_ROUNDS sets the number of uploads (default 3).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { killHostedProcess, startHostedProcess } from '../helpers/hosted-process.js';
import { call, link, type Device } from '../hosted/client.js';

const BLOB_BYTES = 25 * 1000 * 1000;
const ROUNDS = Number(process.env.HOSTED_BLOBS_BENCH_ROUNDS ?? 3);
/** Pullers take turns over several tenants: each device stays far inside its pull rate limit. */
const TENANTS = 8;
const BASELINE_PULLS = 400;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const summary = (ms: number[]) => `p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms (${ms.length} pulls)`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Pulls that failed to connect (a stalled server drops idle keep-alive sockets as they are reused). */
let failedPulls = 0;

/** Pulls round-robin over the tenants, one at a time, until `until` says stop; returns each pull's time. */
async function pullLoop(tenants: Device[], until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; !until(); i++) {
    const started = performance.now();
    const res = await tenants[i % tenants.length].pull().catch(() => null);
    if (!res) failedPulls++;
    else if (res.status !== 200) throw new Error(`pull answered ${res.status}: ${JSON.stringify(res.body)}`);
    times.push(performance.now() - started);
  }
  return times;
}

export default async function hostedBlobsBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-bench-blobs-'));
  const hosted = await startHostedProcess({ dataDir: path.join(dir, 'hosted') });
  const pid = hosted.child.pid!;
  try {
    const { device: uploader } = await link(hosted.url);
    const tenants: Device[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const { device } = await link(hosted.url);
      // A small log to pull (50 rows), as a device catching up on a quiet entity would.
      const pushed = await device.push(Array.from({ length: 50 }, (_, n) => device.change('folders', `f${n}`, { name: `Folder ${n}`, parent_id: null })));
      if (pushed.status !== 200) throw new Error(`push answered ${pushed.status}`);
      tenants.push(device);
    }
    await pullLoop(tenants, (() => { let n = 0; return () => n++ >= 40; })()); // warm-up

    let pulls = 0;
    const baseline = await pullLoop(tenants, () => pulls++ >= BASELINE_PULLS);
    console.log(`other tenants' pulls, no upload running: ${summary(baseline)}`);

    const during: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const blob = crypto.randomBytes(BLOB_BYTES);
      const sha = crypto.createHash('sha256').update(blob).digest('hex');
      await sleep(500);
      const before = rssOf(pid);
      let peak = before;
      let uploading = true;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
      const started = performance.now();
      const upload = call(hosted.url, 'PUT', `/sync/v1/blobs/${sha}`, { token: uploader.token, raw: blob }).finally(() => (uploading = false));
      const [res, times] = await Promise.all([upload, pullLoop(tenants, () => !uploading)]);
      const uploadMs = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(pid));
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
      during.push(...times);
      console.log(`upload ${round} of ${(BLOB_BYTES / 1e6).toFixed(0)} MB: ${Math.round(uploadMs)} ms; hosted RSS ${mb(before)} → peak ${mb(peak)} (+${mb(peak - before)}, goal < 100 MB); pulls meanwhile: ${times.length ? summary(times) : 'none'}`);
    }
    if (during.length) {
      console.log(`other tenants' pulls during uploads: ${summary(during)} (goal < 100 ms)`);
      if (failedPulls) console.log(`  ${failedPulls} pulls failed to connect (counted with their time)`);
      console.log(`  vs no upload: p50 ×${(percentile(during, 50) / percentile(baseline, 50)).toFixed(1)}, p99 ×${(percentile(during, 99) / percentile(baseline, 99)).toFixed(1)}`);
    }
  } catch (err) {
    // The instance may have died under the upload (PGlite aborting): its own words say why.
    await sleep(1000);
    console.log(`hosted exit ${hosted.child.exitCode ?? hosted.child.signalCode ?? 'none yet'}; its log ends:\n${fs.readFileSync(hosted.logFile, 'utf8').slice(-2000)}`);
    throw err;
  } finally {
    await killHostedProcess(hosted.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
