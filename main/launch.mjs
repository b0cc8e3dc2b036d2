// `npm start`: the desktop app when Electron's binary is present; otherwise (as on machines that
// cannot download it) the same server headless, serving the UI at a printed local URL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
// The server's build (shared with `npm run server`): plain JavaScript, rebuilt only when a source changed.
import { filesUnder, fingerprint, lockfile, root, serverBundle } from '../scripts/server-bundle.mjs';

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
