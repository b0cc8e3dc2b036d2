// Blobs on the hosted instance, run against PGlite (files in the data dir) and PostgreSQL
// (chunks in the database): streamed both ways, hashed while streaming, nothing left behind by a
// refused or broken upload, and every entity's access checked through its own row.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { MAX_BLOB_BYTES } from '../../server/sync/protocol.js';
import { call, link } from './client.js';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PUT sent piece by piece, as a real client's body arrives; stops writing once the server has answered. */
function putInPieces(base: string, sha: string, token: string, opts: { pieces: Buffer[]; contentLength?: number; abortAfter?: number }): Promise<{ status: number; body: any } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}/sync/v1/blobs/${sha}`);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' };
    if (opts.contentLength !== undefined) headers['content-length'] = String(opts.contentLength);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: text && (res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text });
        req.destroy();
      });
    });
    // The server may close the socket once it has answered a body it refused part-way.
    req.on('error', (err) => (answered ? undefined : opts.abortAfter !== undefined ? resolve('aborted') : reject(err)));
    void (async () => {
      for (const [i, piece] of opts.pieces.entries()) {
        if (answered || req.destroyed) return;
        if (opts.abortAfter === i) {
          await sleep(300); // the server has taken what was sent
          req.destroy();
          resolve('aborted');
          return;
        }
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

export function hostedBlobSuite(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`hosted blobs on ${name}`, () => {
    let hosted: RunningHosted;
    let base: string;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-blobs-'));

    beforeAll(async () => {
      hosted = await startHosted({ port: 0, dataDir, databaseUrl: await databaseUrl(), logLevel: 'silent' });
      base = hosted.url;
    }, 120_000);
    afterAll(async () => {
      await hosted?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const filePath = (sha: string) => path.join(dataDir, 'blobs', 'sha256', sha.slice(0, 2), sha.slice(2, 4), sha);
    const rowsOf = async (sha: string) => ((await hosted.ctx.store.db.execute(`select entity_id from blobs where sha256 = '${sha}'`)) as unknown as { rows: unknown[] }).rows.length;

    /** What a refused or broken upload could leave: temp files (PGlite), chunks no blob row names (PostgreSQL). */
    async function leftovers(): Promise<number> {
      if (hosted.ctx.store.kind === 'pglite') {
        const tmp = path.join(dataDir, 'blobs', 'tmp');
        return fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
      }
      const res = (await hosted.ctx.store.db.execute('select count(*)::int as n from blob_chunks c where not exists (select 1 from blobs b where b.upload_id = c.upload_id)')) as unknown as { rows: { n: number }[] };
      return res.rows[0].n;
    }

    /** Where the bytes are: a file in the data dir (PGlite), chunks of at most 1 MiB (PostgreSQL). */
    async function expectStored(sha: string, size: number): Promise<void> {
      if (hosted.ctx.store.kind === 'pglite') {
        expect(fs.statSync(filePath(sha)).size).toBe(size);
        return;
      }
      const uploads = (await hosted.ctx.store.db.execute(`select upload_id from blobs where sha256 = '${sha}'`)) as unknown as { rows: { upload_id: string }[] };
      expect(uploads.rows.length).toBeGreaterThan(0);
      for (const { upload_id } of uploads.rows) {
        const res = (await hosted.ctx.store.db.execute(`select n, length(data)::int as bytes from blob_chunks where upload_id = '${upload_id}' order by n`)) as unknown as { rows: { n: number; bytes: number }[] };
        expect(res.rows.map((r) => r.n)).toEqual(res.rows.map((_, i) => i));
        expect(res.rows.every((r) => r.bytes <= MiB)).toBe(true);
        expect(res.rows.reduce((sum, r) => sum + r.bytes, 0)).toBe(size);
      }
    }

    it('keeps no file bytes in the blobs table', async () => {
      const columns = (await hosted.ctx.store.db.execute(`select column_name from information_schema.columns where table_name = 'blobs'`)) as unknown as { rows: { column_name: string }[] };
      expect(columns.rows.map((r) => r.column_name)).not.toContain('data');
    });

    it('round-trips a multi-MiB blob, streamed, and stores it outside the row', async () => {
      const { device } = await link(base);
      const data = crypto.randomBytes(5 * MiB + 12_345);
      const sha = sha256(data);
      const pieces = Array.from({ length: Math.ceil(data.length / 65_536) }, (_, i) => data.subarray(i * 65_536, (i + 1) * 65_536));
      const put = await putInPieces(base, sha, device.token, { pieces });
      expect(put).toEqual({ status: 201, body: { sha256: sha, size: data.length } });
      expect((await call(base, 'PUT', `/sync/v1/blobs/${sha}`, { token: device.token, raw: data })).status).toBe(200);
      const head = await call(base, 'HEAD', `/sync/v1/blobs/${sha}`, { token: device.token });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(data.length));
      const res = await fetch(`${base}/sync/v1/blobs/${sha}`, { headers: { authorization: `Bearer ${device.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(data.length));
      expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
      await expectStored(sha, data.length);
      // The empty file is a file too.
      const empty = sha256(Buffer.alloc(0));
      expect((await call(base, 'PUT', `/sync/v1/blobs/${empty}`, { token: device.token, raw: Buffer.alloc(0) })).status).toBe(201);
      const got = await fetch(`${base}/sync/v1/blobs/${empty}`, { headers: { authorization: `Bearer ${device.token}` } });
      expect((await got.arrayBuffer()).byteLength).toBe(0);
    });

    it('refuses a body that does not hash to the path with 400 and keeps nothing', async () => {
      const { device } = await link(base);
      const data = crypto.randomBytes(3 * MiB);
      const claimed = sha256(Buffer.from('something else'));
      const res = await call(base, 'PUT', `/sync/v1/blobs/${claimed}`, { token: device.token, raw: data });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/hash/);
      expect((await call(base, 'HEAD', `/sync/v1/blobs/${claimed}`, { token: device.token })).status).toBe(404);
      expect(await rowsOf(claimed)).toBe(0);
      expect(await leftovers()).toBe(0);
      expect(fs.existsSync(filePath(claimed)) || fs.existsSync(filePath(sha256(data)))).toBe(false);
    });

    it('refuses a body over the limit with 413, by Content-Length up front and while streaming, and keeps nothing', async () => {
      const { device } = await link(base);
      const sha = 'e'.repeat(64);
      const declared = await putInPieces(base, sha, device.token, { pieces: [Buffer.alloc(1024)], contentLength: MAX_BLOB_BYTES + 1 });
      expect(declared).toMatchObject({ status: 413, body: { error: expect.any(String) } });
      // No Content-Length (chunked): counted as it arrives.
      const piece = Buffer.alloc(MiB, 7);
      const streamed = await putInPieces(base, sha, device.token, { pieces: Array.from({ length: MAX_BLOB_BYTES / MiB + 2 }, () => piece) });
      expect(streamed).toMatchObject({ status: 413, body: { error: expect.any(String) } });
      expect(await rowsOf(sha)).toBe(0);
      await expect.poll(leftovers, { timeout: 5000 }).toBe(0);
      expect((await call(base, 'HEAD', `/sync/v1/blobs/${sha}`, { token: device.token })).status).toBe(404);
    });

    it('leaves nothing behind when the client disconnects midway', async () => {
      const { device } = await link(base);
      const data = crypto.randomBytes(6 * MiB);
      const sha = sha256(data);
      const pieces = Array.from({ length: 6 }, (_, i) => data.subarray(i * MiB, (i + 1) * MiB));
      expect(await putInPieces(base, sha, device.token, { pieces, contentLength: data.length, abortAfter: 3 })).toBe('aborted');
      await expect.poll(leftovers, { timeout: 5000 }).toBe(0);
      expect(await rowsOf(sha)).toBe(0);
      expect(fs.existsSync(filePath(sha))).toBe(false);
      expect((await call(base, 'HEAD', `/sync/v1/blobs/${sha}`, { token: device.token })).status).toBe(404);
      // The instance goes on: the same file uploads in full afterwards.
      expect((await call(base, 'PUT', `/sync/v1/blobs/${sha}`, { token: device.token, raw: data })).status).toBe(201);
    });

    it("an entity never reaches another's blob, even when both uploaded the same file", async () => {
      const a = (await link(base)).device;
      const b = (await link(base)).device;
      const c = (await link(base)).device;
      const data = crypto.randomBytes(2 * MiB + 1);
      const sha = sha256(data);
      expect((await call(base, 'PUT', `/sync/v1/blobs/${sha}`, { token: a.token, raw: data })).status).toBe(201);
      expect((await call(base, 'HEAD', `/sync/v1/blobs/${sha}`, { token: b.token })).status).toBe(404);
      const denied = await call(base, 'GET', `/sync/v1/blobs/${sha}`, { token: b.token });
      expect(denied.status).toBe(404);
      expect(denied.body.error).toEqual(expect.any(String));
      // B has the same file: its own upload gives it its own row; on PGlite the file is shared.
      expect((await call(base, 'PUT', `/sync/v1/blobs/${sha}`, { token: b.token, raw: data })).status).toBe(201);
      for (const d of [a, b]) {
        const res = await fetch(`${base}/sync/v1/blobs/${sha}`, { headers: { authorization: `Bearer ${d.token}` } });
        expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
      }
      expect(await rowsOf(sha)).toBe(2);
      await expectStored(sha, data.length);
      expect((await call(base, 'HEAD', `/sync/v1/blobs/${sha}`, { token: c.token })).status).toBe(404);
      expect((await call(base, 'GET', `/sync/v1/blobs/${sha}`, { token: c.token })).status).toBe(404);
    });
  });
}
