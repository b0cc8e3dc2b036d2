import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../server/webhooks/send.js';
import { parseRetryAfter, retryDelayMs } from '../../server/webhooks/schedule.js';

let server: http.Server;
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/redirect') return void res.writeHead(302, { location: '/elsewhere' }).end();
    if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(200_000));
    res.writeHead(200).end('fine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const send = (path: string, timeoutMs?: number) => sendWebhook({ url: base + path, headers: {}, body: '{}', allowLocal: true, timeoutMs });

describe('sending one webhook', () => {
  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const r = await send('/hang', 300);
    expect(r).toMatchObject({ statusCode: null, error: 'Timed out after 0.3 s', blocked: false });
  });

  it('does not follow redirects', async () => {
    const r = await send('/redirect');
    expect(r.statusCode).toBe(302);
  });

  it('keeps only the first kilobyte of a large response', async () => {
    const r = await send('/big');
    expect(r.statusCode).toBe(200);
    expect(r.responseExcerpt).toHaveLength(1024);
  });

  it('reports a refused connection as an error, not a crash', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await sendWebhook({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', allowLocal: true });
    expect(r.statusCode).toBeNull();
    expect(r.error).toMatch(/ECONNREFUSED/);
  });
});

describe('retry schedule', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with ±10 % jitter, then stops', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, () => 0.5))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelayMs(1, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, () => 1)).toBe(5_500);
    expect(retryDelayMs(8)).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a day', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:10:00 GMT', now)).toBe(600_000);
    expect(parseRetryAfter('999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
