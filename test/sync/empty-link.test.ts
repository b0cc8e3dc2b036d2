// Issue 31: a business linked before it has any data. Its hosted log is empty, so every device's
// cursor stays 0 — a valid, up-to-date position, not "never synced". Real processes: a hosted
// instance and two device servers, each device behind a proxy that counts its requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, type ServerProcess } from '../soak/server-process.js';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';
import { FaultProxy } from './fault-proxy.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-empty-link-'));
const password = 'correct horse battery staple';
const running: { hosted?: HostedProcess; devices: ServerProcess[]; proxies: FaultProxy[] } = { devices: [], proxies: [] };

afterAll(async () => {
  for (const d of running.devices) await killServerProcess(d).catch(() => undefined);
  if (running.hosted) await killHostedProcess(running.hosted.child).catch(() => undefined);
  for (const p of running.proxies) await p.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const snapshots = (p: FaultProxy) => p.requests.filter((r) => r === 'GET /sync/v1/snapshot').length;

async function runCycles(c: Client, n: number): Promise<string[]> {
  const states: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await c.post('/api/sync/run', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    states.push(res.body.state === 'synced' ? 'synced' : `${res.body.state}: ${res.body.lastError}`);
  }
  return states;
}

/** The status once the device's own loop (every second) is not in the middle of a cycle: 'syncing' says only that one runs. */
async function statusBetweenCycles(c: Client): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const body = (await c.get('/api/sync/status')).body as Record<string, unknown>;
    if (body.state !== 'syncing') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('a sync cycle ran for more than 5 s');
}

async function subjects(c: Client): Promise<string[]> {
  const res = await c.get('/api/helpdesk/tickets');
  return (res.body as { subject: string }[]).map((t) => t.subject).sort();
}

describe('an entity linked before it has data', () => {
  it('takes one snapshot per device, stays synced over 30 cycles each, then converges on new data', async () => {
    const hosted = (running.hosted = await startHostedProcess({ dataDir: path.join(tmp, 'hosted') }));
    const target = new URL(hosted.url);
    const [proxyA, proxyB] = (running.proxies = await Promise.all([0, 1].map(() => new FaultProxy({ host: target.hostname, port: Number(target.port) }).start())));
    const [a, b] = (running.devices = await Promise.all(['a', 'b'].map((n) => startServerProcess(path.join(tmp, n)))));

    const signup = await makeClient(a.url).post('/api/auth/signup', { email: 'owner@example.com', password, name: 'Owner', entityName: 'Fresh Ltd' });
    expect(signup.status).toBe(201);
    const entityId = signup.body.entity.id as string;
    const onA = makeClient(a.url, { cookie: (signup.headers.get('set-cookie') ?? '').split(';')[0], origin: a.url, 'x-entity-id': entityId });
    const linked = await onA.post('/api/sync/link', { hostedUrl: proxyA.url, email: 'owner@example.com', password });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body.waiting).toBe(0);
    const code = (await onA.post('/api/sync/devices/code', {})).body.code;
    const joined = await makeClient(b.url).post('/api/sync/join', { hostedUrl: proxyB.url, code, email: 'owner@example.com', password });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const onB = makeClient(b.url, { cookie: (joined.headers.get('set-cookie') ?? '').split(';')[0], origin: b.url, 'x-entity-id': entityId });

    // 30 cycles by hand on each device, while their own loops run too (every second).
    const [statesA, statesB] = await Promise.all([runCycles(onA, 30), runCycles(onB, 30)]);
    expect(statesA).toEqual(Array(30).fill('synced'));
    expect(statesB).toEqual(Array(30).fill('synced'));
    expect(snapshots(proxyA)).toBe(1);
    expect(snapshots(proxyB)).toBe(1);
    expect(await statusBetweenCycles(onB)).toMatchObject({ state: 'synced', nextAttemptAt: null });

    // Data on either device now reaches the other.
    expect((await onA.post('/api/helpdesk/tickets', { subject: 'First on A' })).status).toBe(201);
    expect((await onB.post('/api/helpdesk/tickets', { subject: 'First on B' })).status).toBe(201);
    const deadline = Date.now() + 20_000;
    for (;;) {
      await onA.post('/api/sync/run', {});
      await onB.post('/api/sync/run', {});
      const [ta, tb] = [await subjects(onA), await subjects(onB)];
      if (ta.length === 2 && JSON.stringify(ta) === JSON.stringify(tb)) break;
      if (Date.now() > deadline) throw new Error(`no convergence: A ${JSON.stringify(ta)} B ${JSON.stringify(tb)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(snapshots(proxyA)).toBe(1);
    expect(snapshots(proxyB)).toBe(1);
  }, 120_000);
});
