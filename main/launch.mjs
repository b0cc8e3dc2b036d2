// `npm start`: the desktop app when Electron's binary is present; otherwise (as on machines that
// cannot download it) the same server headless, serving the UI at a printed local URL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
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

let bin = electronBinary();
if (!bin && process.env.BUREAU_FETCH_ELECTRON !== '0') {
  // On a machine with internet this fetches the binary the install step skipped.
  spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], { cwd: root, stdio: 'ignore' });
  bin = electronBinary();
}

if (bin) {
  run(npx, ['electron-vite', 'build']);
  const child = spawn(bin, ['.'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('Electron is not available on this machine; starting Bureau headless. Open the URL below in a browser.');
  run(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  const child = spawn(npx, ['tsx', 'server/cli.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
