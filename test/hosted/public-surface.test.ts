// The hosted instance as a stranger meets it: whose address a request comes from (a client's own
// X-Forwarded-For counts only behind a proxy the operator trusts), answers that carry tokens are
// never stored by a browser or proxy, `/` says what this server is, and the signing screen's
// assets fail loudly when missing. One PGlite at a time: the instance restarts on the same data dir.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type HostedOptions, type RunningHosted } from '../../server/hosted/main.js';
import { VERSION } from '../../server/version.js';
import { startHostedProcess, killHostedProcess } from '../helpers/hosted-process.js';
import { call, link } from './client.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-surface-'));
const dataDir = path.join(root, 'data');
const rendererDir = path.join(root, 'renderer');
let hosted: RunningHosted;

/** Small relay limit: a transfer request counts per client address before anything else is judged (503 here: no chains). */
const start = (extra: Partial<HostedOptions> = {}) =>
  startHosted({ port: 0, dataDir, logLevel: 'silent', rendererDir, limits: { relay: { limit: 2, windowMs: 60_000, message: 'Too many relay requests; try again later' } }, ...extra });

beforeAll(async () => {
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'document.title = "signing";');
  hosted = await start();
}, 120_000);
afterAll(async () => {
  await hosted?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const relayFrom = (address: string) => call(hosted.url, 'POST', '/api/relay/transfer', { body: {}, headers: { 'x-forwarded-for': address } });
/** Two requests that claim one address, then one that claims another: its status says which address the instance counted. */
async function thirdFromAnotherAddress(): Promise<number> {
  for (let i = 0; i < 2; i++) expect((await relayFrom('203.0.113.7')).status).toBe(503);
  return (await relayFrom('198.51.100.9')).status;
}

describe('GET /', () => {
  it('serves a short page that says what this instance is, with security headers', async () => {
    const res = await fetch(`${hosted.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<title>Bureau hosted instance</title>');
    for (const purpose of ['Sync', 'Signing pages', 'Relay']) expect(html).toContain(purpose);
    expect(html).toContain('href="/api/health"');
    expect(html).toContain(VERSION);
    expect(html.length).toBeLessThan(4000);
  });

  it('keeps answering unknown API paths with 404 {error}', async () => {
    for (const p of ['/sync/v1/nope', '/api/nope', '/nope']) {
      const res = await call(hosted.url, 'GET', p);
      expect(res.status, p).toBe(404);
      expect(res.body.error, p).toEqual(expect.any(String));
    }
  });
});

describe('answers that carry tokens or tenant data are never stored (Cache-Control: no-store)', () => {
  it('on /sync/v1: link (the device token), devices, push, pull and their errors', async () => {
    const linkAnswer = await fetch(`${hosted.url}/sync/v1/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({}) });
    expect(linkAnswer.headers.get('cache-control')).toBe('no-store');
    const { device } = await link(hosted.url);
    const answers = [
      await call(hosted.url, 'GET', '/sync/v1/devices', { token: device.token }),
      await device.push([device.change('folders', 'f1', { name: 'Contracts' })]),
      await device.pull(),
      await call(hosted.url, 'POST', '/sync/v1/devices/codes', { token: device.token }),
      await call(hosted.url, 'GET', '/sync/v1/pull', { token: `dt_${'x'.repeat(43)}` }),
    ];
    for (const a of answers) expect(a.headers.get('cache-control'), JSON.stringify(a.body)).toBe('no-store');
  });

  it('on the signing and relay routes, while a file keeps its own long-lived private caching', async () => {
    expect((await call(hosted.url, 'GET', `/api/sign/${'x'.repeat(40)}`)).headers.get('cache-control')).toBe('no-store');
    expect((await call(hosted.url, 'GET', `/api/sign/${'x'.repeat(40)}/document`)).headers.get('cache-control')).toBe('no-store');
    expect((await call(hosted.url, 'GET', '/api/relay/jobs/0190a8f0-0000-7000-8000-000000000000')).headers.get('cache-control')).toBe('no-store');
    const { device } = await link(hosted.url);
    const data = Buffer.from('a file');
    const sha = crypto.createHash('sha256').update(data).digest('hex');
    expect((await call(hosted.url, 'PUT', `/sync/v1/blobs/${sha}`, { token: device.token, raw: data })).status).toBe(201);
    const blob = await call(hosted.url, 'GET', `/sync/v1/blobs/${sha}`, { token: device.token });
    expect(blob.status).toBe(200);
    expect(blob.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });
});

describe('the signing screen', () => {
  it('is served at /sign/{token}; a missing asset is a 404, never the page', async () => {
    const page = await fetch(`${hosted.url}/sign/${'t'.repeat(43)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const asset = await fetch(`${hosted.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    for (const p of ['/assets/missing.js', '/sign/assets/app.js']) {
      const missing = await call(hosted.url, 'GET', p);
      expect(missing.status, p).toBe(404);
      expect(missing.body.error, p).toEqual(expect.any(String));
    }
  });
});

describe('the client address (per-IP rate limits)', () => {
  it('is the socket address by default: a client cannot choose it with X-Forwarded-For', async () => {
    expect(await thirdFromAnotherAddress()).toBe(429);
  });

  it('is the X-Forwarded-For of a trusted proxy with trustProxy (here: loopback)', async () => {
    await hosted.close();
    hosted = await start({ trustProxy: 'loopback' });
    expect(await thirdFromAnotherAddress()).toBe(503);
    // …and the first address is still limited on its own.
    expect((await relayFrom('203.0.113.7')).status).toBe(429);
  }, 60_000);

  it('takes a hop count as a number of proxies, not as an address', async () => {
    await hosted.close();
    hosted = await start({ trustProxy: '1' });
    expect(await thirdFromAnotherAddress()).toBe(503);
  }, 60_000);

  it('refuses a spec Express does not understand before opening anything', async () => {
    const dir = path.join(root, 'never-opened');
    for (const spec of ['not-an-address', '10.0.0.0/33', '', 'loopback,,']) {
      await expect(startHosted({ port: 0, dataDir: dir, logLevel: 'silent', trustProxy: spec })).rejects.toThrow(/^--trust-proxy ".*": .*expected/);
    }
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('stops `npm run hosted -- --trust-proxy <bad>` with a clear message', async () => {
    const started = startHostedProcess({ dataDir: path.join(root, 'cli'), args: ['--trust-proxy', '300.1.1.1'] });
    await expect(started).rejects.toThrow(/failed to start: --trust-proxy "300\.1\.1\.1": invalid IP address: 300\.1\.1\.1; expected/);
    await started.then((p) => killHostedProcess(p.child)).catch(() => undefined);
  }, 60_000);
});
