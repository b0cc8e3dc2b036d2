// The desktop server serves the built UI: every page path gets the single page (the UI routes
// itself, so a reloaded `/documents/requests/{id}` works), while a missing file (under /assets/,
// or anywhere a path names a file) is a 404 — never the page, which a browser would take for a
// script and show a white screen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-ui-serving-'));
const INDEX = '<!doctype html><script type="module" src="/assets/app.js"></script>';
let server: TestServer;

beforeAll(async () => {
  fs.mkdirSync(path.join(rendererDir, 'assets'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'document.title = "Bureau";');
  server = await startTestServer({ rendererDir });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(rendererDir, { recursive: true, force: true });
});

describe('the built UI', () => {
  it('answers every page path, nested ones included, with the single page', async () => {
    for (const p of ['/', '/documents/requests/0190a8f0-0000-7000-8000-000000000000', '/settings/sync', '/sign/abc']) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(await res.text(), p).toBe(INDEX);
    }
  });

  it('serves its assets, and answers a missing one with 404 {error}', async () => {
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    // …wherever it is asked for: a page built with relative URLs asks under its own path.
    for (const p of ['/assets/missing.js', '/assets/index-0123abcd.css', '/assets/', '/documents/requests/assets/index-0123abcd.js', '/sign/assets/app.js', '/favicon.ico']) {
      const res = await server.anon.get(p);
      expect(res.status, p).toBe(404);
      expect(res.body.error, p).toEqual(expect.any(String));
    }
  });
});
