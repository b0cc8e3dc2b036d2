// Rate limits and the oldest accepted schema version, on a hosted instance of their own (small
// limits, a raised minimum) so the main suite's instance keeps the defaults.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { call, link, linkInput } from './client.js';

let hosted: RunningHosted;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-limits-'));
const minute = (limit: number) => ({ limit, windowMs: 60_000, message: 'Too many requests from this device; try again shortly' });

beforeAll(async () => {
  hosted = await startHosted({
    port: 0,
    dataDir,
    logLevel: 'silent',
    limits: { push: minute(3), pull: minute(4), snapshot: minute(1), blobs: minute(2), manage: minute(2), signIn: minute(6), badToken: minute(3) },
  });
}, 120_000);
afterAll(async () => {
  await hosted?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('oldest accepted schema version', () => {
  it('refuses pushes from an older device with 426 and advertises the minimum', async () => {
    const { device } = await link(hosted.url, linkInput());
    hosted.ctx.minSchemaVersion = 2;
    try {
      const info = await call(hosted.url, 'GET', '/sync/v1/info');
      expect(info.body.minSchemaVersion).toBe(2);
      expect(info.headers.get('x-min-schema-version')).toBe('2');
      const refused = await call(hosted.url, 'POST', '/sync/v1/push', { token: device.token, body: { changes: [device.change('folders', 'old', { name: 'from v1' })] } });
      expect(refused.status).toBe(426);
      expect(refused.body.error).toMatch(/Update required/);
    } finally {
      hosted.ctx.minSchemaVersion = 1;
    }
  });
});

describe('rate limits', () => {
  it('counts pulls, pushes, snapshots, blobs and management per device, with 429, Retry-After and {error}', async () => {
    const { device } = await link(hosted.url);
    const { device: other } = await link(hosted.url);
    for (let i = 0; i < 4; i++) expect((await device.pull()).status).toBe(200);
    const limited = await device.pull();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.error).toMatch(/Too many/);
    // Another device is counted on its own.
    expect((await other.pull()).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await device.push([device.change('folders', `f${i}`, { name: 'x' })])).status).toBe(200);
    expect((await device.push([device.change('folders', 'f9', { name: 'x' })])).status).toBe(429);
    const snapshot = () => fetch(`${hosted.url}/sync/v1/snapshot`, { headers: { authorization: `Bearer ${device.token}` } });
    const first = await snapshot();
    expect(first.status).toBe(200);
    await first.text();
    expect((await snapshot()).status).toBe(429);
    for (let i = 0; i < 2; i++) expect((await call(hosted.url, 'HEAD', `/sync/v1/blobs/${'a'.repeat(64)}`, { token: device.token })).status).toBe(404);
    expect((await call(hosted.url, 'HEAD', `/sync/v1/blobs/${'a'.repeat(64)}`, { token: device.token })).status).toBe(429);
    for (let i = 0; i < 2; i++) expect((await call(hosted.url, 'GET', '/sync/v1/devices', { token: device.token })).status).toBe(200);
    expect((await call(hosted.url, 'POST', '/sync/v1/devices/rotate', { token: device.token })).status).toBe(429);
  });

  it('counts link and join attempts and invalid device tokens per address', async () => {
    // Three links above; three more attempts reach the limit of six, whatever their outcome.
    for (let i = 0; i < 2; i++) expect((await call(hosted.url, 'POST', '/sync/v1/link', { body: linkInput() })).status).toBe(201);
    expect((await call(hosted.url, 'POST', '/sync/v1/join', { body: { code: 'ABCDE-FGHJK', email: 'x@example.com', password: 'long enough password', deviceName: 'x' } })).status).toBe(401);
    const limited = await call(hosted.url, 'POST', '/sync/v1/link', { body: linkInput() });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Too many/);
    for (let i = 0; i < 3; i++) expect((await call(hosted.url, 'GET', '/sync/v1/pull', { token: `dt_${'x'.repeat(43)}` })).status).toBe(401);
    expect((await call(hosted.url, 'GET', '/sync/v1/pull', { token: `dt_${'x'.repeat(43)}` })).status).toBe(429);
  });
});

