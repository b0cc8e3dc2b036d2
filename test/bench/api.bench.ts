// API framework overhead (`npm run bench api`): the real server (Express, guards, credentials,
// route specs) against a raw `node:http` + better-sqlite3 server on the SAME database file in
// the same process, doing the same work by hand: the API key's SHA-256 looked up by its hash
// (revoked/expired refused), the entity's tickets selected newest first, JSON out.
// Both are driven by the same load: API_BENCH_CONNECTIONS keep-alive connections (default 16)
// with one request in flight each, API_BENCH_ROUNDS (default 3) rounds of API_BENCH_SECONDS
// (default 3) alternating real and raw, each after a 1 s warm-up, from a child process (so the
// load shares neither the servers' event loop nor this process's CPU account). Prints mean req/s
// and their ratio, and this process's CPU time per request (only the server under load runs
// here) and its ratio: on a shared 2-core box the CPU figure is the steadier of the two, since
// req/s also moves with whatever else the machine runs.
// API_BENCH_PROFILE=<dir> writes a CPU profile of the real server's measured phases there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { fork } from 'node:child_process';
import Database from 'better-sqlite3';
import express from 'express';
import { startTestServer } from '../helpers/server.js';
import { VERSION } from '../../server/version.js';

const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.API_BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.API_BENCH_CONNECTIONS ?? 16);
const TICKETS = 50;
const PROFILE_DIR = process.env.API_BENCH_PROFILE;

interface LoadResult {
  requests: number;
  bad: number;
  seconds: number;
  firstBadStatus: number | null;
}

function load(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const u = new URL(url);
  const job = JSON.stringify({ origin: u.origin, path: u.pathname + u.search, headers, connections: CONNECTIONS, seconds });
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./api-load.mjs', import.meta.url), [job], { execArgv: [], stdio: 'inherit' });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

interface Figure {
  /** Requests per second. */
  rate: number;
  /** This process's CPU time (user + system) per request, in microseconds: only the server under load runs here. */
  cpuUs: number;
}

/** Warm-up, then the measured run (throws if any response was not 200). */
async function measure(name: string, url: string, headers: Record<string, string>, profile: boolean): Promise<Figure> {
  await load(url, headers, 1);
  const session = profile && PROFILE_DIR ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  const r = await load(url, headers, SECONDS);
  const used = process.cpuUsage(cpu);
  if (session) {
    const { profile: p } = await session.post('Profiler.stop');
    fs.mkdirSync(PROFILE_DIR!, { recursive: true });
    fs.writeFileSync(path.join(PROFILE_DIR!, `${name}.cpuprofile`), JSON.stringify(p));
    session.disconnect();
  }
  if (r.bad) throw new Error(`${name}: ${r.bad} responses were not 200 (first: ${r.firstBadStatus})`);
  return { rate: r.requests / r.seconds, cpuUs: (used.user + used.system) / r.requests };
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const TICKET_FIELDS = ['id', 'entityId', 'ticketNumber', 'subject', 'description', 'status', 'priority', 'channel', 'contactEmail', 'contactName', 'categoryId', 'createdBy', 'assignedTo', 'createdAt', 'updatedAt', 'firstResponseAt', 'resolvedAt', 'closedAt'];

/** The baseline: node:http + better-sqlite3 prepared statements, same checks, same rows. */
async function startRawServer(dbFile: string) {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 5000');
  const keyByHash = db.prepare('select id, entity_id, scopes, revoked_at, expires_at from api_keys where key_hash = ?');
  const tickets = db.prepare(`select ${TICKET_FIELDS.map((f) => (f === 'subject' ? '(provisional_number is not null and provisional_number = ticket_number) as "numberProvisional", ' : '') + `${snake(f)} as "${f}"`).join(', ')} from helpdesk_tickets where entity_id = ? order by created_at desc, id desc`);
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  };
  type KeyRow = { id: string; entity_id: string; scopes: string; revoked_at: string | null; expires_at: string | null };
  const keyOf = (req: http.IncomingMessage): KeyRow | null => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m) return null;
    const row = keyByHash.get(crypto.createHash('sha256').update(m[1]).digest('hex')) as KeyRow | undefined;
    if (!row || row.revoked_at || (row.expires_at && row.expires_at <= new Date().toISOString())) return null;
    return row;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/health') {
      if (req.headers.authorization && !keyOf(req)) return send(res, 401, { error: 'Invalid API key' });
      return send(res, 200, { status: 'ok', version: VERSION });
    }
    if (url.pathname === '/api/helpdesk/tickets') {
      const key = keyOf(req);
      if (!key) return send(res, 401, { error: 'Invalid API key' });
      const entityId = url.searchParams.get('entityId');
      if (entityId !== key.entity_id || !(JSON.parse(key.scopes) as string[]).includes('read:helpdesk')) return send(res, 403, { error: 'Forbidden' });
      const rows = (tickets.all(entityId) as { numberProvisional: number }[]).map((t) => ({ ...t, numberProvisional: t.numberProvisional === 1 }));
      res.setHeader('x-total-count', String(rows.length));
      return send(res, 200, rows);
    }
    send(res, 404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      db.close();
    },
  };
}

export default async function apiBench() {
  const server = await startTestServer();
  const raw = { url: '', close: async () => {} };
  try {
    const owner = await server.signup();
    for (let i = 0; i < TICKETS; i++) {
      const res = await owner.post('/api/helpdesk/tickets', { subject: `Benchmark ticket ${i}`, description: 'x'.repeat(200), contactEmail: `c${i}@example.com`, contactName: `Contact ${i}` });
      if (res.status !== 201) throw new Error(`ticket: ${res.status}`);
    }
    const keyClient = await server.apiKeyClient(owner, ['read:helpdesk']);
    Object.assign(raw, await startRawServer(path.join(server.dataDir, 'bureau.db')));
    const auth = { authorization: `Bearer ${keyClient.key}` };
    const list = `/api/helpdesk/tickets?entityId=${owner.entityId}`;

    // Same body from both (the raw server is a fair stand-in).
    const [a, b] = await Promise.all([fetch(server.url + list, { headers: auth }), fetch(raw.url + list, { headers: auth })]);
    const [ja, jb] = [await a.json(), await b.json()];
    if (JSON.stringify(ja) !== JSON.stringify(jb) || (ja as unknown[]).length !== TICKETS) throw new Error('the raw server does not answer the same tickets');

    console.log(`${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS} s per server and figure, ${TICKETS} tickets`);
    const fmt = (n: number) => Math.round(n).toLocaleString('en');
    const report = (name: string, real: Figure, base: Figure) =>
      console.log(
        `${name.padEnd(20)} ${fmt(real.rate).padStart(6)} req/s vs raw ${fmt(base.rate).padStart(6)}: ratio ${(real.rate / base.rate).toFixed(2)}` +
          `   | CPU/request ${fmt(real.cpuUs).padStart(5)} µs vs raw ${fmt(base.cpuUs).padStart(5)}: ratio ${(base.cpuUs / real.cpuUs).toFixed(2)}`,
      );
    // Real and raw alternate, ROUNDS times each, so a change in the machine's load hits both.
    const compare = async (name: string, realUrl: string, rawUrl: string, headers: Record<string, string>, profile: boolean) => {
      const real: Figure = { rate: 0, cpuUs: 0 };
      const base: Figure = { rate: 0, cpuUs: 0 };
      for (let i = 0; i < ROUNDS; i++) {
        for (const [sum, f] of [
          [real, await measure(name, realUrl, headers, profile && i === 0)],
          [base, await measure(`${name}-raw`, rawUrl, headers, profile && i === 0)],
        ] as const) {
          sum.rate += f.rate / ROUNDS;
          sum.cpuUs += f.cpuUs / ROUNDS;
        }
      }
      report(name, real, base);
    };
    await compare('tickets (API key)', server.url + list, raw.url + list, auth, true);
    await compare('health (API key)', server.url + '/api/health', raw.url + '/api/health', auth, true);
    await compare('health (no key)', server.url + '/api/health', raw.url + '/api/health', {}, true);
    // For reference: how close Express itself, with nothing of ours, gets to the raw server.
    const bare = express();
    bare.get('/api/health', (_req, res) => void res.json({ status: 'ok', version: VERSION }));
    const bareServer = await new Promise<http.Server>((r) => {
      const s = bare.listen(0, '127.0.0.1', () => r(s));
    });
    try {
      await compare('bare Express health', `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/health`, raw.url + '/api/health', {}, false);
    } finally {
      bareServer.closeAllConnections();
      bareServer.close();
    }
  } finally {
    await raw.close();
    await server.close();
  }
}
