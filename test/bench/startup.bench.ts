// Startup benchmark: time from spawn to the first 200 of GET /api/health, and the server's resident
// memory (VmRSS) idle after start and after 10k requests. Baseline, measured in the same run: a
// bare `node -e` that opens a SQLite file with better-sqlite3 and answers over node:http.
//
//   npx tsx test/bench/run.ts startup        (STARTUP_RUNS=5 for more samples; the median is printed)
//
// Rows:
//  - `npm run server` as users run it (node scripts/server.mjs) with nothing changed since the
//    server's last build (made here first if needed): the build, source maps on;
//  - server/cli.ts under tsx: what `npm run server` runs on the first start after a change of the
//    server's sources (while it builds them for the next start), or when the build fails;
//  - `npm start` (headless: no Electron binary) second start with nothing changed;
//  - the bundled server as the desktop runs it: the desktop bundle (out/main/index.js) imports
//    `electron` at its top, so plain node cannot start it; instead the server build `npm start`
//    runs is measured: server/cli.ts bundled by Rollup as electron-vite bundles the main process
//    (the packages needed to start bundled in, the rest external, dynamic imports in chunks),
//    started with plain node.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentServerBundle } from '../../scripts/server-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.STARTUP_RUNS ?? 3);
const REQUESTS = Number(process.env.STARTUP_REQUESTS ?? 10_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-startup-'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The pid of the process that listens (the launcher's child for `npm start`). */
function serverPid(child: ChildProcess): number {
  const kids = (() => {
    try {
      return fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  return kids.length === 1 ? kids[0] : child.pid!;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

interface Started {
  child: ChildProcess;
  port: number;
  ms: number;
  output: () => string;
}

/** A port free right now (the OS picks it; the server binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Spawns `args` with `--port P --data-dir D` and polls until /api/health answers 200. */
async function spawnUntilHealthy(cmd: string, args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const port = await freePort();
  let out = '';
  const started = performance.now();
  const child = spawn(cmd, [...args, '--port', String(port), '--data-dir', dataDir], { cwd: root, env: { ...process.env, BUREAU_FETCH_ELECTRON: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error(`no 200 within 120 s:\n${out}`);
    await sleep(5);
  }
  return { child, port, ms: performance.now() - started, output: () => out };
}

/** Median time to first 200 over RUNS starts on the same (already migrated) data directory. */
async function timeStarts(label: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ ms: number; runs: number[] }> {
  const dataDir = path.join(tmp, label);
  await stop((await spawnUntilHealthy(cmd, args, dataDir, env)).child); // creates and migrates; not measured
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await spawnUntilHealthy(cmd, args, dataDir, env);
    runs.push(s.ms);
    await stop(s.child);
  }
  return { ms: median(runs), runs };
}

async function hammer(port: number, n: number): Promise<void> {
  const agent = `http://127.0.0.1:${port}/api/health`;
  let i = 0;
  const worker = async () => {
    while (i++ < n) await (await fetch(agent)).arrayBuffer();
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** RSS of a started server once idle, then after `REQUESTS` requests and a moment of idling. */
async function memory(cmd: string, args: string[], label: string): Promise<{ idle: number; after: number }> {
  const s = await spawnUntilHealthy(cmd, args, path.join(tmp, label));
  try {
    await sleep(2000);
    const pid = serverPid(s.child);
    const idle = rssMb(pid);
    await hammer(s.port, REQUESTS);
    await sleep(2000);
    return { idle, after: rssMb(pid) };
  } finally {
    await stop(s.child);
  }
}

const baselineScript = `
const Database = require('better-sqlite3');
const http = require('node:http');
const args = process.argv.slice(1);
const port = Number(args[args.indexOf('--port') + 1]);
const dir = args[args.indexOf('--data-dir') + 1];
require('node:fs').mkdirSync(dir, { recursive: true });
const db = new Database(dir + '/bureau.db');
db.pragma('journal_mode = WAL');
const stmt = db.prepare('select 1 as ok');
http.createServer((req, res) => { const ok = stmt.get().ok === 1; res.writeHead(ok ? 200 : 500, { 'content-type': 'application/json' }); res.end('{"status":"ok"}'); }).listen(port, '127.0.0.1');
`;

/**
 * The server bundled by Rollup as the desktop's main bundle is (startup packages bundled in, the
 * rest external, lazily imported modules in chunks): the build of the current sources that
 * `npm start` and `npm run server` run (scripts/server-bundle.mjs), made by the rows before.
 */
function bundledServer(): string {
  const entry = currentServerBundle();
  if (!entry) throw new Error('no server build of the current sources in out/server');
  return entry;
}

const fmt = (ms: number) => `${Math.round(ms).toLocaleString('en')} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}× baseline`;

export default async function startupBench() {
  try {
    const node = process.execPath;
    const baseline = await timeStarts('baseline', node, ['-e', baselineScript, '--']);
    console.log(`baseline (node -e: better-sqlite3 + node:http)  first 200: ${fmt(baseline.ms)}  runs ${baseline.runs.map(Math.round).join(', ')}`);

    const built = spawnSync(node, ['scripts/server-bundle.mjs'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('could not build the server');
    const server = await timeStarts('npm-run-server', node, ['scripts/server.mjs']);
    console.log(`npm run server (the build, source maps)       first 200: ${fmt(server.ms)}  ${ratio(server.ms, baseline.ms)}  runs ${server.runs.map(Math.round).join(', ')}`);

    const tsx = await timeStarts('tsx', node, ['--import', 'tsx', 'server/cli.ts']);
    console.log(`server/cli.ts under tsx (first after a change) first 200: ${fmt(tsx.ms)}  ${ratio(tsx.ms, baseline.ms)}  runs ${tsx.runs.map(Math.round).join(', ')}`);

    // `npm start`: its first start (not measured) builds the UI and the server if their sources
    // changed; the following ones find nothing changed.
    const start = await timeStarts('npm-start', node, ['main/launch.mjs']);
    console.log(`npm start, second start (nothing changed)     first 200: ${fmt(start.ms)}  ${ratio(start.ms, baseline.ms)}  runs ${start.runs.map(Math.round).join(', ')}`);

    const bundle = bundledServer();
    const bundled = await timeStarts('bundled', node, [bundle]);
    console.log(`bundled server, plain node                    first 200: ${fmt(bundled.ms)}  ${ratio(bundled.ms, baseline.ms)}  runs ${bundled.runs.map(Math.round).join(', ')}`);

    const base = await memory(node, ['-e', baselineScript, '--'], 'baseline');
    const serverMem = await memory(node, ['scripts/server.mjs'], 'npm-run-server');
    const bundledMem = await memory(node, [bundle], 'bundled');
    const mb = (x: number) => `${Math.round(x)} MB`;
    console.log(`RSS baseline            idle ${mb(base.idle)}  after ${REQUESTS} requests ${mb(base.after)}`);
    console.log(`RSS npm run server      idle ${mb(serverMem.idle)} (${(serverMem.idle / base.idle).toFixed(1)}× baseline)  after ${REQUESTS} requests ${mb(serverMem.after)} (${(serverMem.after / base.after).toFixed(1)}×)`);
    console.log(`RSS bundled server      idle ${mb(bundledMem.idle)} (${(bundledMem.idle / base.idle).toFixed(1)}× baseline)  after ${REQUESTS} requests ${mb(bundledMem.after)} (${(bundledMem.after / base.after).toFixed(1)}×)`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
