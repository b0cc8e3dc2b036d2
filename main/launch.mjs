// `npm start`: the desktop app when Electron's binary is present; otherwise (as on machines that
// cannot download it) the same server headless, serving the UI at a printed local URL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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

/** Newest modification time under `dir` (skipping node_modules), 0 when absent. */
function newestMtime(dir) {
  if (!fs.existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes('node_modules')) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** The built UI is reused while nothing it is built from changed (a rebuild costs seconds). */
function uiIsCurrent() {
  const built = path.join(root, 'out', 'renderer', 'index.html');
  if (!fs.existsSync(built)) return false;
  const sources = Math.max(newestMtime(path.join(root, 'renderer')), fs.statSync(path.join(root, 'package-lock.json')).mtimeMs);
  return fs.statSync(built).mtimeMs >= sources;
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
  if (!uiIsCurrent()) run(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  // The server runs in one node process (no npx/tsx wrapper between us), with an IPC channel
  // so that it also stops when this launcher dies without a chance to pass a signal on.
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'cli.ts'), ...process.argv.slice(2)], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  supervise(server);
}
