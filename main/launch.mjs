// `npm start`: the desktop app when Electron's binary is present; otherwise (as on machines that
// cannot download it) the same server headless, serving the UI at a printed local URL.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function electronBinary() {
  try {
    const bin = require('electron'); // the path of the binary, or throws when it was never downloaded
    return typeof bin === 'string' && fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Files under `dir` (recursively, skipping node_modules), absolute paths. */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.parentPath.split(path.sep).includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** A fingerprint of files: their paths, sizes and modification times (any edit, addition or removal changes it). */
function fingerprint(files) {
  const h = crypto.createHash('sha256');
  for (const f of [...new Set(files)].sort()) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    h.update(`${path.relative(root, f)}\0${st ? `${st.size}:${st.mtimeMs}` : '-'}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

const importPattern = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** `files` and the local modules they import, transitively (the renderer compiles in shared server schemas). */
function withLocalImports(files) {
  const seen = new Set();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(tsx?|mts|m?js)$/.test(file) || file.startsWith(path.join(root, 'node_modules'))) continue;
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(importPattern)) {
      const base = path.resolve(path.dirname(file), spec);
      const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
      const found = candidates.find((c) => fs.statSync(c, { throwIfNoEntry: false })?.isFile());
      if (found) queue.push(found);
    }
  }
  return [...seen];
}

const lockfile = path.join(root, 'package-lock.json');
const uiStamp = path.join(root, 'out', 'renderer', '.sources');

/**
 * The built UI is reused while nothing it is built from changed (a rebuild costs seconds): the
 * renderer, the server modules it compiles in, and the lockfile, fingerprinted into a stamp
 * written beside the build.
 */
function uiSourcesFingerprint() {
  return fingerprint([...withLocalImports(filesUnder(path.join(root, 'renderer'))), lockfile]);
}

function uiIsCurrent(sources) {
  const built = path.join(root, 'out', 'renderer', 'index.html');
  if (!fs.existsSync(built)) return false;
  if (fs.existsSync(uiStamp)) return fs.readFileSync(uiStamp, 'utf8').trim() === sources;
  // A build made without us (`npm run build:renderer`): current when newer than every source.
  const files = [...withLocalImports(filesUnder(path.join(root, 'renderer'))), lockfile];
  return Math.max(...files.map((f) => fs.statSync(f).mtimeMs)) <= fs.statSync(built).mtimeMs;
}

function ensureUi() {
  const sources = uiSourcesFingerprint();
  if (uiIsCurrent(sources)) {
    console.log('The UI is unchanged since its last build (out/renderer); not rebuilding it.');
  } else {
    console.log('Building the UI (its sources changed)…');
    run(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  }
  fs.writeFileSync(uiStamp, `${sources}\n`);
}

/**
 * The server as plain JavaScript, so that starting it compiles no TypeScript: server/cli.ts
 * bundled by Vite (Rollup, as the desktop's main bundle is; packages stay in node_modules, lazily
 * imported modules become chunks that load on first use) into out/server/<fingerprint of its
 * sources>/, built only when a source changed. Each module keeps its own `import.meta.url`, so the
 * files it finds beside it (workers, migrations, circuit artifacts, fonts) are the same as under
 * tsx. A build a running server may still load chunks from is never overwritten; builds beyond
 * the last three are removed. Null (run under tsx) when the build fails.
 */
async function serverBundle() {
  const sources = fingerprint([...filesUnder(path.join(root, 'server')), lockfile, fileURLToPath(import.meta.url)]);
  const buildsDir = path.join(root, 'out', 'server');
  const dir = path.join(buildsDir, sources);
  const entry = path.join(dir, 'cli.mjs');
  if (fs.existsSync(entry)) {
    console.log('The server is unchanged since its last build (out/server); not rebuilding it.');
    return entry;
  }
  console.log('Building the server (its sources changed)…');
  const started = performance.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  const ownImportMetaUrl = {
    name: 'bureau:own-import-meta-url',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return null;
      return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id.split('?')[0]).href)), map: null };
    },
  };
  try {
    const { build } = await import('vite');
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      mode: 'production',
      plugins: [ownImportMetaUrl],
      ssr: { target: 'node' },
      build: {
        ssr: path.join(root, 'server', 'cli.ts'),
        outDir: tmp,
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: true,
        reportCompressedSize: false,
        rollupOptions: { output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } },
      },
    });
    // Packages resolve from the repository's node_modules (out/server/<build>/ → ../../../node_modules).
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (fs.existsSync(entry)) return entry; // another launcher built the same sources meanwhile
    console.warn(`Could not build the server (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); running it under tsx.`);
    return null;
  }
  console.log(`Built the server in ${Math.round(performance.now() - started)} ms.`);
  const older = fs
    .readdirSync(buildsDir)
    .filter((d) => d !== sources && !d.includes('.tmp-'))
    .map((d) => ({ d, t: fs.statSync(path.join(buildsDir, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of older.slice(2)) fs.rmSync(path.join(buildsDir, d), { recursive: true, force: true });
  return entry;
}

/**
 * Runs the app as our child: SIGINT/SIGTERM/SIGHUP are passed on, and we exit when it has
 * stopped, with its status — so stopping `npm start` stops the server, never orphans it.
 */
function supervise(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0)));
  // `npm start` runs us under `sh -c`, and a SIGTERM to npm stops that shell without passing it
  // on: when our parent is gone we have been orphaned, which means stop.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && child.kill('SIGTERM'), 250).unref();
}

let bin = electronBinary();
if (!bin && process.env.BUREAU_FETCH_ELECTRON !== '0') {
  // On a machine with internet this fetches the binary the install step skipped.
  spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], { cwd: root, stdio: 'ignore' });
  bin = electronBinary();
}

if (bin) {
  run(npx, ['electron-vite', 'build']);
  supervise(spawn(bin, ['.'], { cwd: root, stdio: 'inherit' }));
} else {
  console.log('Electron is not available on this machine; starting Bureau headless. Open the URL below in a browser.');
  ensureUi();
  // The server runs in one node process (no npx/tsx wrapper between us), with an IPC channel
  // so that it also stops when this launcher dies without a chance to pass a signal on.
  const bundle = await serverBundle();
  const entry = bundle ? [bundle] : ['--import', 'tsx', path.join(root, 'server', 'cli.ts')];
  const server = spawn(process.execPath, [...(bundle ? ['--enable-source-maps'] : []), ...entry, ...process.argv.slice(2)], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  supervise(server);
}
