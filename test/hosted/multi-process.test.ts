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
          const batch = Array.from({ length: PER_PUSH - 1 }, (_, k) => device.change('helpdesk_tickets', `t-${p}-${i}-${k}`, { subject: `ticket ${p}/${i}/${k}` }));
          // Every push also writes one shared row, so pushes contend on a row as well as on the entity.
          batch.push(device.change('helpdesk_tickets', 'shared', { subject: `${p}-${i}` }));
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

  it('a pull waiting in one process is woken by a push through the other (LISTEN/NOTIFY), before its safety look at 5 s', async () => {
    const { device } = await link(bases[0]);
    const listener = new Device(bases[1], device.enrolment);
    const started = Date.now();
    const waiting = listener.pull(0, '&waitMs=20000');
    await new Promise((r) => setTimeout(r, 500));
    await device.push([device.change('folders', 'woken', { name: 'Inbox' })]);
    const res = await waiting;
    expect(res.body.changes.map((c: { rowId: string }) => c.rowId)).toEqual(['woken']);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it('a snapshot through one process includes what was pushed through the other', async () => {
    const { device } = await link(bases[0]);
    await device.push(Array.from({ length: 20 }, (_, i) => device.change('folders', `s${i}`, { name: `S${i}` })));
    const res = await fetch(`${bases[1]}/sync/v1/snapshot`, { headers: { authorization: `Bearer ${device.token}` } });
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ kind: 'header', seq: 20, rows: 20 });
    expect(lines.at(-1)).toMatchObject({ kind: 'end', seq: 20, rows: 20 });
    expect(lines.slice(1, -1).map((l) => l.rowId).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `s${i}`).sort());
  });

  it('a retried push through the other process is recognised as a duplicate', async () => {
    const { device } = await link(bases[0]);
    const change = device.change('folders', 'f', { name: 'Inbox' });
    const first = await device.push([change]);
    const retried = await new Device(bases[1], device.enrolment).push([change]);
    expect(retried.body.results[0]).toEqual({ id: change.id, status: 'duplicate', seq: first.body.results[0].seq });
  });
});
