// `npm run bench`: runs every test/bench/*.bench.ts. Each exports `default async function()` that
// prints its figures and ratios against a baseline measured in the same run.
// `npm run bench backup ledger` runs those whose names contain a word; `--name=value` arguments
// are options a bench reads itself (e.g. `npm run bench backup -- --files=1GB`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const mod = await import(pathToFileURL(path.join(dir, file)).href);
  await mod.default();
}
if (files.length === 0) console.log('No benchmarks found.');
