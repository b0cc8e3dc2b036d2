// A snapshot refused for a real reason (the hosted instance's limit): the device waits out the
// Retry-After — its own cycles and ones asked for by hand do not call again before then — and
// its status says when it tries again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { FaultProxy } from '../sync/fault-proxy.js';

let hosted: RunningHosted;
let proxy: FaultProxy;
let device: TestServer;
let owner: SessionClient;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-snapshot-backoff-'));

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent', limits: { snapshot: { limit: 1, windowMs: 10 * 60_000, message: 'Too many snapshots from this device; try again later' } } });
  proxy = await new FaultProxy({ host: '127.0.0.1', port: hosted.port }).start();
  device = await startTestServer();
  owner = await device.signup({ entityName: 'Backoff Ltd' });
}, 120_000);

afterAll(async () => {
  await device?.close();
  await proxy?.close();
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

it('waits out the Retry-After of a refused snapshot and says when it tries again', async () => {
  const linked = await owner.post('/api/sync/link', { hostedUrl: proxy.url, email: owner.email, password: owner.password });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  expect(linked.body).toMatchObject({ state: 'synced', nextAttemptAt: null });
  const snapshots = () => proxy.requests.filter((r) => r === 'GET /sync/v1/snapshot').length;
  expect(snapshots()).toBe(1);

  // What a discarded change or compaction does: the next pull starts from a snapshot, which the
  // limit (one per 10 minutes here) now refuses.
  device.ctx.sqlite.prepare('UPDATE sync_links SET needs_snapshot = 1 WHERE entity_id = ?').run(owner.entityId);
  const refused = await owner.post('/api/sync/run', {});
  expect(refused.body).toMatchObject({ state: 'error', lastError: 'Too many snapshots from this device; try again later' });
  expect(snapshots()).toBe(2);
  const retryAt = Date.parse(refused.body.nextAttemptAt);
  expect(retryAt).toBeGreaterThan(Date.now() + 9 * 60_000);

  const asked = proxy.requests.length;
  for (let i = 0; i < 5; i++) {
    const again = await owner.post('/api/sync/run', {});
    expect(again.body).toMatchObject({ state: 'error', nextAttemptAt: refused.body.nextAttemptAt });
  }
  await device.ctx.loops.runAll(); // the automatic cycle honours it too
  expect(proxy.requests.length).toBe(asked);
  expect(snapshots()).toBe(2);
});
