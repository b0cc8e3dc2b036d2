// The server's build cache is keyed by its sources and by the checkout: a build holds absolute
// paths, so a copied or moved checkout (cp -a keeps sizes and times) must not reuse it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { fingerprint } from '../../scripts/server-bundle.mjs';

it('differs between two checkouts with the same files, sizes and times', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-fingerprint-'));
  try {
    const a = path.join(tmp, 'a');
    fs.mkdirSync(path.join(a, 'server'), { recursive: true });
    fs.writeFileSync(path.join(a, 'server', 'cli.ts'), 'export {};\n');
    const b = path.join(tmp, 'b');
    fs.cpSync(a, b, { recursive: true });
    const when = new Date('2026-11-01T12:00:00Z');
    for (const dir of [a, b]) fs.utimesSync(path.join(dir, 'server', 'cli.ts'), when, when);
    const of = (dir: string) => fingerprint([path.join(dir, 'server', 'cli.ts')], dir);
    const before = of(a);
    expect(of(a)).toBe(before);
    expect(of(b)).not.toBe(before);
    fs.appendFileSync(path.join(a, 'server', 'cli.ts'), '// edited\n');
    expect(of(a)).not.toBe(before);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
