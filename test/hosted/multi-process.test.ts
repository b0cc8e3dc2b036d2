// Two hosted processes on one real PostgreSQL serve the same entity consistently: concurrent
// pushes through both get one gap-free seq order, and a reader following the cursor through
// the other process sees every change exactly once, in that order, never skipping a late commit.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Device, link } from './client.js';
import { startHostedProcess } from '../helpers/hosted-process.js';

let pg: TestPostgres;
const processes: ChildProcess[] = [];
const bases: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-mp-'));

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase('multi_process');
  // Both start at once: migrations must not race.
  const started = await Promise.all([0, 1].map((i) => startHostedProcess({ dataDir: path.join(tmp, `hosted-${i}`), databaseUrl: url })));
  processes.push(...started.map((p) => p.child));
  bases.push(...started.map((p) => p.url));
}, 120_000);

afterAll(async () => {
  for (const child of processes) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await pg?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('two hosted processes on one PostgreSQL', () => {
  it('concurrent pushes through both get one gap-free order that a concurrent reader follows exactly', async () => {
    const { device: owner } = await link(bases[0]);
    const PUSHERS = 6;
    const PUSHES = 15;
    const PER_PUSH = 8;
    const total = PUSHERS * PUSHES * PER_PUSH;
    // One Device object per pusher (own HLC), alternating between the two processes.
    const pushers = Array.from({ length: PUSHERS }, (_, i) => new Device(bases[i % 2], owner.enrolment));
    const reader = new Device(bases[1], owner.enrolment);

    const seen: number[] = [];
    let cursor = 0;
    let pushing = true;
    const reading = (async () => {
      while (pushing || seen.length < total) {
        const res = await reader.pull(cursor, '&waitMs=500&limit=50');
        expect(res.status).toBe(200);
        for (const c of res.body.changes) seen.push(c.seq);
        cursor = res.body.cursor;
      }
    })();

    const accepted: number[] = [];
    await Promise.all(
      pushers.map(async (device, p) => {
        for (let i = 0; i < PUSHES; i++) {
          const batch = Array.from({ length: PER_PUSH - 1 }, (_, k) => device.change('tickets', `t-${p}-${i}-${k}`, { subject: `ticket ${p}/${i}/${k}` }));
          // Every push also writes one shared row, so pushes contend on a row as well as on the entity.
          batch.push(device.change('tickets', 'shared', { counter: `${p}-${i}` }));
          const res = await device.push(batch);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          for (const r of res.body.results) {
            expect(r.status).toBe('accepted');
            accepted.push(r.seq);
          }
        }
      }),
    );
    pushing = false;
    await reading;

    const expected = Array.from({ length: total }, (_, i) => i + 1);
    expect([...accepted].sort((a, b) => a - b)).toEqual(expected);
    expect(seen).toEqual(expected);
    const log = await new Device(bases[0], owner.enrolment).pullAll();
    expect(log.changes.map((c) => c.seq)).toEqual(expected);
    expect(new Set(log.changes.map((c) => c.id)).size).toBe(total);
  }, 120_000);

  it('a retried push through the other process is recognised as a duplicate', async () => {
    const { device } = await link(bases[0]);
    const change = device.change('folders', 'f', { name: 'Inbox' });
    const first = await device.push([change]);
    const retried = await new Device(bases[1], device.enrolment).push([change]);
    expect(retried.body.results[0]).toEqual({ id: change.id, status: 'duplicate', seq: first.body.results[0].seq });
  });
});
