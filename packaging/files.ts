// What the packaged desktop app contains, in one place for the build (electron.vite.config.ts),
// electron-builder (electron-builder.config.ts) and the layout test.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { startupPackageRoots } from '../scripts/server-bundle.mjs';

/**
 * Worker-thread entry files that server code loads by URL next to itself
 * (`new URL('./x.mjs', import.meta.url)`): in the app they sit next to the main bundle, in
 * `app.asar.unpacked` (see main/asar-paths.ts).
 */
export const workerEntryFiles = ['server/privacy/prover-worker.mjs', 'server/documents/seal-worker.mjs', 'server/documents/pdf-text-worker.mjs', 'server/db/read-worker.mjs'];

/**
 * Files the server reads by URL relative to its own code besides the workers: the circuit
 * artifacts, and the typed-signature font the sealed PDF embeds with its licence (the OFL asks
 * that the licence travel with the font).
 */
export const unpackedResourceGlobs = ['resources/zk/*.wasm', 'resources/zk/*.zkey', 'resources/zk/*.vkey.json', 'resources/fonts/caveat/*.woff', 'resources/fonts/caveat/OFL.txt'];

const builtins = new Set(builtinModules);

/** The npm packages a JS module imports (static, dynamic and require), without Node built-ins. */
export function bareImports(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)) {
    const spec = m[2];
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.includes(':')) continue;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    if (!builtins.has(name)) names.add(name);
  }
  return [...names].sort();
}

/** The folder Node's resolution finds for package `name` starting from `fromDir` (inside `root`). */
function resolvePackageDir(name: string, fromDir: string, root: string): string | null {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || path.dirname(dir) === dir) return null;
  }
}

/**
 * Every installed package folder (relative to `root`, e.g. `node_modules/snarkjs` or
 * `node_modules/a/node_modules/b`) that `names` need at run time: their dependencies and
 * optional dependencies, transitively, as Node would resolve them.
 */
export function dependencyClosure(names: string[], root: string = process.cwd()): string[] {
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string) => {
    const dir = resolvePackageDir(name, fromDir, root);
    if (!dir) return; // an optional dependency not installed on this platform
    const rel = path.relative(root, dir).split(path.sep).join('/');
    if (seen.has(rel)) return;
    seen.add(rel);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
  };
  for (const name of names) visit(name, root);
  return [...seen].sort();
}

/** The npm packages the worker entries import: they run from app.asar.unpacked, so these must too. */
export function workerPackages(root: string = process.cwd()): string[] {
  const roots = new Set(workerEntryFiles.flatMap((file) => bareImports(fs.readFileSync(path.join(root, file), 'utf8'))));
  return dependencyClosure([...roots], root);
}

/**
 * Package folders bundled into the main bundle (the packages the server starts with,
 * scripts/server-bundle.mjs) that nothing else loads at run time: not packed a second time.
 */
export function bundledOnlyPackages(root: string = process.cwd()): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !hostedOnlyDependencies.includes(d) && !startupPackageRoots.includes(d));
  const loaded = new Set([...dependencyClosure(external, root), ...workerPackages(root)]);
  return dependencyClosure(startupPackageRoots, root).filter((dir) => !loaded.has(dir));
}

/** Production dependencies only the hosted service (`npm run hosted`) uses: not part of the desktop app. */
export const hostedOnlyDependencies = ['@electric-sql/pglite', 'pg'];

/** Package folders that only hosted-only dependencies need (shared ones stay in the app). */
export function hostedOnlyPackages(root: string = process.cwd()): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const desktop = new Set(dependencyClosure(Object.keys(pkg.dependencies ?? {}).filter((d) => !hostedOnlyDependencies.includes(d)), root));
  return dependencyClosure(hostedOnlyDependencies, root).filter((dir) => !desktop.has(dir));
}

/**
 * Excluded from the app although they sit in production packages: type declarations, TypeScript
 * sources and source maps (nothing loads them at run time), and better-sqlite3's C sources and
 * build intermediates (only build/Release/better_sqlite3.node is loaded).
 */
export const packageExclusions = [
  '!**/node_modules/**/*.{ts,mts,cts,map}',
  '!**/node_modules/@types/**',
  '!**/node_modules/better-sqlite3/{deps,src}/**',
  '!**/node_modules/better-sqlite3/binding.gyp',
  '!**/node_modules/better-sqlite3/build/{Makefile,binding.Makefile,config.gypi,*.mk}',
  '!**/node_modules/better-sqlite3/build/{deps,Release/obj,Release/obj.target,Release/.deps}/**',
  '!**/node_modules/better-sqlite3/build/Release/{test_extension.node,sqlite3.a}',
];
