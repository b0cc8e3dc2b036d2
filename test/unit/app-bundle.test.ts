// The desktop bundle (electron.vite.config.ts) must ship every worker entry that server code loads
// by URL next to itself, or that feature (proving, PDF sealing) fails only in the packaged app.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerEntryFiles } from '../../electron.vite.config.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return /\.(ts|mjs)$/.test(e.name) ? [file] : [];
  });
}

describe('desktop bundle', () => {
  it('copies every worker entry the server loads by URL', () => {
    // The hosted service (server/hosted, `npm run hosted`) runs from the source tree, not the desktop app.
    const loaded = sourceFiles('server').filter((file) => !file.startsWith(path.join('server', 'hosted') + path.sep)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/new URL\(\s*'\.\/([\w-]+\.mjs)'\s*,\s*import\.meta\.url\s*\)/g)].map((m) => path.join(path.dirname(file), m[1])),
    );
    expect(loaded.length).toBeGreaterThanOrEqual(2);
    expect([...workerEntryFiles].sort()).toEqual([...new Set(loaded)].sort());
  });
});
