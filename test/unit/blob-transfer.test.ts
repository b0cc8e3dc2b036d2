// A device's files to and from the hosted instance as streams: the blob store writes a file as it
// arrives and keeps it only when it hashes to its name; an upload is sent as it is read.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../server/context.js';
import { createBlobStore } from '../../server/blobs/store.js';
import { BadRequestError, PayloadTooLargeError } from '../../server/http/errors.js';
import { fetchMissingBlob } from '../../server/sync/blob-fetch.js';
import type { LinkRow } from '../../server/sync/engine.js';
import { callHosted, HostedError } from '../../server/sync/hosted-client.js';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-blob-transfer-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function* piecesOf(data: Buffer, size = 64 * 1024) {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

describe('blob store: streamed writes', () => {
  const store = createBlobStore(path.join(root, 'store'));
  const temps = () => (fs.existsSync(path.join(root, 'store', 'tmp')) ? fs.readdirSync(path.join(root, 'store', 'tmp')) : []);

  it('stores a file from its pieces under its hash', async () => {
    const data = crypto.randomBytes(3 * MiB + 7);
    expect(await store.putStream(piecesOf(data), { sha256: sha256(data) })).toEqual({ sha256: sha256(data), size: data.length });
    expect(store.get(sha256(data)).equals(data)).toBe(true);
    expect(temps()).toEqual([]);
  });

  it('keeps nothing of a file that does not hash to its name, is too large, or breaks off', async () => {
    const data = crypto.randomBytes(MiB);
    await expect(store.putStream(piecesOf(data), { sha256: 'a'.repeat(64) })).rejects.toBeInstanceOf(BadRequestError);
    await expect(store.putStream(piecesOf(data), { maxBytes: MiB - 1 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    const broken = (async function* () {
      yield data.subarray(0, 1000);
      throw new Error('connection reset');
    })();
    await expect(store.putStream(broken)).rejects.toThrow('connection reset');
    expect(store.has(sha256(data))).toBe(false);
    expect(temps()).toEqual([]);
  });
});

describe('device ↔ hosted file transfer', () => {
  let server: http.Server;
  let base: string;
  const served = new Map<string, Buffer>();
  let received: { chunked: boolean; body: Buffer } | null = null;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const sha = req.url!.split('/').pop()!;
      if (req.method === 'PUT') {
        const parts: Buffer[] = [];
        req.on('data', (d: Buffer) => parts.push(d));
        req.on('end', () => {
          received = { chunked: req.headers['transfer-encoding'] === 'chunked', body: Buffer.concat(parts) };
          res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
        });
        return;
      }
      const data = served.get(sha);
      if (!data) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Blob not found"}');
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const device = () => {
    const blobs = createBlobStore(path.join(root, `device-${crypto.randomUUID()}`));
    return { ctx: { blobs } as unknown as Context, link: { hostedUrl: base } as LinkRow, blobs };
  };

  it('downloads a file into the blob store as it arrives', async () => {
    const data = crypto.randomBytes(4 * MiB);
    served.set(sha256(data), data);
    const { ctx, link, blobs } = device();
    await fetchMissingBlob(ctx, link, 'dt_token', sha256(data));
    expect(blobs.get(sha256(data)).equals(data)).toBe(true);
  });

  it('refuses a downloaded file that does not match its name, keeping nothing', async () => {
    const claimed = 'b'.repeat(64);
    served.set(claimed, crypto.randomBytes(100_000));
    const { ctx, link, blobs } = device();
    const err = await fetchMissingBlob(ctx, link, 'dt_token', claimed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostedError);
    expect((err as HostedError).status).toBe(502);
    expect(blobs.has(claimed)).toBe(false);
  });

  it('uploads a file from a stream, as it is read', async () => {
    const data = crypto.randomBytes(2 * MiB);
    const { blobs } = device();
    const { sha256: sha } = blobs.put(data);
    await callHosted(base, 'PUT', `/sync/v1/blobs/${sha}`, { token: 'dt_token', raw: fs.createReadStream(blobs.pathOf(sha)) });
    expect(received!.chunked).toBe(true);
    expect(received!.body.equals(data)).toBe(true);
  });
});
