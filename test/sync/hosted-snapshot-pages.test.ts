// The hosted instance (PGlite: one connection, each query holds it) reads a snapshot in
// bounded pages: more rows than one page holds take several queries, and so do a few rows that
// are large. Every row still arrives once, and the header counts them all.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { PAGE_ROWS, snapshotPages } from '../../server/hosted/snapshot.js';
import { link, type Device } from '../hosted/client.js';

let hosted: RunningHosted;
const hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-pages-'));

beforeAll(async () => {
  hosted = await startHosted({ port: 0, dataDir: hostedDir, logLevel: 'silent' });
}, 60_000);

afterAll(async () => {
  await hosted?.close();
  fs.rmSync(hostedDir, { recursive: true, force: true });
});

/** Pushes `count` folders, `perPush` at a time, each with a name of `nameBytes`. */
async function pushFolders(device: Device, count: number, perPush: number, nameBytes: number) {
  for (let i = 0; i < count; ) {
    const changes = [];
    for (; changes.length < perPush && i < count; i += 1) changes.push(device.change('folders', `f${i}`, { name: nameBytes > 0 ? crypto.randomBytes(nameBytes / 2).toString('hex') : `F${i}` }));
    const pushed = await device.push(changes);
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  }
}

async function pagesOf(device: Device) {
  const entityId = device.enrolment.entity.id;
  const pages: { n: number; rowIds: string[] }[] = [];
  for await (const page of snapshotPages(hosted.ctx.store.db, entityId, { after: 0, upTo: Number.MAX_SAFE_INTEGER })) {
    pages.push({ n: page.n, rowIds: page.lines.split('\n').map((l) => (JSON.parse(l) as { rowId: string }).rowId) });
  }
  return pages;
}

async function snapshotOf(device: Device) {
  const res = await fetch(`${hosted.url}/sync/v1/snapshot`, { headers: { authorization: `Bearer ${device.token}` } });
  expect(res.status).toBe(200);
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { rowId: string; rows: number });
  return { header: lines[0], rows: lines.slice(1, -1), end: lines.at(-1)! };
}

describe('the hosted snapshot is read in bounded pages', () => {
  it('more rows than a page holds take several queries, each row once', async () => {
    const { device } = await link(hosted.url);
    const count = 2 * PAGE_ROWS + 3;
    await pushFolders(device, count, 500, 0);
    const pages = await pagesOf(device);
    // Before: one page of up to 10,000 rows.
    expect(pages.length).toBe(3);
    expect(pages.every((p) => p.n <= PAGE_ROWS && p.n === p.rowIds.length)).toBe(true);
    const ids = pages.flatMap((p) => p.rowIds);
    expect(new Set(ids).size).toBe(count);

    const { header, rows, end } = await snapshotOf(device);
    expect(header.rows).toBe(count);
    expect(end.rows).toBe(count);
    expect(new Set(rows.map((r) => r.rowId)).size).toBe(count);
  }, 120_000);

  it('a few large rows take several pages too', async () => {
    const { device } = await link(hosted.url);
    // 12 rows of 300 KB: 3.6 MB, past one page's bytes.
    await pushFolders(device, 12, 3, 300_000);
    const pages = await pagesOf(device);
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(pages.flatMap((p) => p.rowIds)).size).toBe(12);
    const { header, rows } = await snapshotOf(device);
    expect(header.rows).toBe(12);
    expect(rows).toHaveLength(12);
  }, 120_000);
});
