import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORE_KINDS, runDurability, WRITE_KINDS } from '../soak/durability.js';
import { killAllServerProcesses, killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { makeClient } from '../helpers/server.js';

/**
 * Acknowledged writes survive a SIGKILL of the server's process group (issue 12). The default
 * run does 3 cycles; `SOAK_CYCLES` scales it (`npm run soak` does 50) and `SOAK_SEED` replays
 * a run's kill moments and write choices. A failing run keeps its data dir and prints its path.
 */
const cycles = Number(process.env.SOAK_CYCLES ?? 3);
const seed = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-durability-'));
let passed = false;

afterAll(() => {
  killAllServerProcesses();
  if (passed) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`durability: data dir kept for inspection: ${dataDir} (replay: SOAK_SEED=${seed} SOAK_CYCLES=${cycles})`);
});

describe('durability under SIGKILL of the real server process', () => {
  it(
    `keeps every acknowledged write across ${cycles} kill/restart cycles (seed ${seed})`,
    async () => {
      const report = await runDurability({ dataDir, cycles, seed, writers: 8, log: (line) => console.log(line) });
      expect(report.problems).toEqual([]);
      expect(report.cycles).toHaveLength(cycles);
      for (const c of report.cycles) {
        expect(c.inFlightAtKill).toBeGreaterThan(0);
        // Every area took acknowledged writes in every cycle (the writers mix all kinds).
        for (const kind of CORE_KINDS) expect(c.acknowledged[kind], `${kind} in cycle ${c.cycle}`).toBeGreaterThan(0);
        expect(WRITE_KINDS.reduce((s, k) => s + c.unacknowledged[k], 0)).toBeGreaterThan(0);
      }
      passed = true;
    },
    60_000 + cycles * 30_000,
  );
});

/**
 * Group commit (issue 15): concurrent single posts and batches share commits; a SIGKILL in the
 * middle of the load must not lose any event whose 201 reached its client.
 */
describe('ledger group commit under SIGKILL', () => {
  it('keeps every acknowledged event of concurrent posts and batches, and the journal balances', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-ledger-kill-'));
    let server: ServerProcess | null = await startServerProcess(dir);
    let ok = false;
    try {
      const anon = makeClient(server.url);
      const signup = await anon.post('/api/auth/signup', { email: `ledger-kill-${Date.now()}@example.com`, password: 'correct horse battery staple', name: 'Kill', entityName: 'Ledger kill' });
      expect(signup.status).toBe(201);
      const entityId: string = signup.body.entity.id;
      const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0];
      const session = makeClient(server.url, { cookie, origin: server.url, 'x-entity-id': entityId });
      const key = await session.post('/api/settings/api-keys', { name: 'ledger load', scopes: ['read:ledger', 'write:ledger'] });
      expect(key.status).toBe(201);

      const event = (k: string, i: number) => ({
        type: 'invoice_created',
        payload: { invoiceNumber: k, currency: 'USD', netAmount: `${100 + (i % 900)}.00`, taxAmount: `${(i % 50) + 1}.25` },
        idempotencyKey: k,
      });
      const acked = new Map<string, string>(); // idempotencyKey → event id, for every 201 received
      const problems: string[] = [];
      let stopped = false;
      let inFlight = 0;
      const sent = async <T>(request: () => Promise<T>) => {
        inFlight += 1;
        try {
          return await request();
        } finally {
          inFlight -= 1;
        }
      };
      const load = (url: string) => {
        const client = makeClient(url, { authorization: `Bearer ${key.body.key}` });
        const single = async (w: number) => {
          for (let i = 0; !stopped; i++) {
            const k = `s${w}-${i}`;
            const res = await sent(() => client.post('/api/ledger/events', { entityId, ...event(k, i) })).catch(() => null);
            if (!res) return; // the server is gone
            if (res.status === 201) acked.set(k, res.body.id);
            else if (res.status !== 503) problems.push(`single ${k}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        };
        const batch = async (w: number) => {
          for (let i = 0; !stopped; i++) {
            const keys = Array.from({ length: 25 }, (_, j) => `b${w}-${i}-${j}`);
            const res = await sent(() => client.post('/api/ledger/events/batch', { entityId, events: keys.map((k, j) => event(k, j)) })).catch(() => null);
            if (!res) return;
            if (res.status !== 200) {
              problems.push(`batch b${w}-${i}: ${res.status} ${JSON.stringify(res.body)}`);
              continue;
            }
            res.body.results.forEach((r: { status: number; event?: { id: string } }, j: number) => {
              if (r.status === 201) acked.set(keys[j], r.event!.id);
              else problems.push(`batch ${keys[j]}: ${r.status}`);
            });
          }
        };
        return [...Array.from({ length: 32 }, (_, w) => single(w)), ...Array.from({ length: 2 }, (_, w) => batch(w))];
      };

      const writers = load(server.url);
      const deadline = Date.now() + 30_000;
      while (acked.size < 600 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const ackedAtKill = acked.size;
      const inFlightAtKill = inFlight;
      await killServerProcess(server); // SIGKILL mid-load: requests are in flight
      stopped = true;
      await Promise.all(writers);
      expect(ackedAtKill).toBeGreaterThan(0);
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      const acknowledged = new Map(acked);

      server = await startServerProcess(dir);
      const reader = makeClient(server.url, { authorization: `Bearer ${key.body.key}` });
      const stored = new Map<string, string>();
      for (let page = 1; ; page++) {
        const res = await reader.get(`/api/ledger/events?entityId=${entityId}&pageSize=200&page=${page}`);
        expect(res.status).toBe(200);
        for (const e of res.body.events as { id: string; idempotencyKey: string; postingStatus: string }[]) {
          stored.set(e.idempotencyKey, e.id);
          expect(e.postingStatus).toBe('posted');
        }
        if (res.body.events.length === 0) break;
      }
      const lost = [...acknowledged].filter(([k, id]) => stored.get(k) !== id);
      expect(lost).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.size);
      const tb = await reader.get(`/api/ledger/trial-balance?entityId=${entityId}`);
      expect(tb.status).toBe(200);
      for (const t of tb.body.totals as { debit: string; credit: string }[]) expect(t.debit).toBe(t.credit);
      console.log(`ledger kill: ${inFlightAtKill} requests in flight at SIGKILL; ${acknowledged.size} events acknowledged, ${stored.size} stored after restart, none lost`);
      ok = true;
    } finally {
      if (server) await killServerProcess(server);
      if (ok) fs.rmSync(dir, { recursive: true, force: true });
      else console.log(`ledger kill: data dir kept for inspection: ${dir}`);
    }
  }, 120_000);
});
