// `npm run desktop:layout`: the packaged app's layout, built here without an Electron binary.
// electron-vite builds main, preload and renderer; electron-builder packs them (`--linux dir`)
// around a stub Electron folder made in a temp dir. The result is app.asar + app.asar.unpacked
// exactly as a release has them, for inspection and for test/packaging — not a runnable app.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedElectronVersion } from './abi';

export const STUB_NOTICE = 'This is a packaging layout with a stub Electron binary, not a runnable app.';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** A folder shaped like an unpacked Electron distribution whose "binary" only says what it is. */
function makeStubElectron(dir: string): void {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'electron'), `#!/bin/sh\necho "${STUB_NOTICE}" >&2\nexit 1\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), pinnedElectronVersion(root));
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'stub\n');
}

export function buildLayout(outDir: string): string {
  run(bin('electron-vite'), ['build', '--logLevel', 'warn']);
  const stub = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-electron-stub-'));
  try {
    makeStubElectron(stub);
    run(bin('electron-builder'), ['--linux', 'dir', '--config', 'electron-builder.config.ts', `-c.electronDist=${stub}`, `-c.directories.output=${outDir}`, '--publish', 'never'], {
      ...process.env,
      BUREAU_BUILD: 'layout',
      // offline here: never let electron-builder look for updates of itself
      NO_UPDATE_NOTIFIER: '1',
    });
  } finally {
    fs.rmSync(stub, { recursive: true, force: true });
  }
  return path.join(outDir, 'linux-unpacked');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const outDir = path.resolve(i > 0 ? process.argv[i + 1] : path.join(os.tmpdir(), 'bureau-desktop-layout'));
  fs.rmSync(outDir, { recursive: true, force: true });
  const app = buildLayout(outDir);
  const asar = path.join(app, 'resources', 'app.asar');
  console.log(`\nLayout: ${app}\n  app.asar ${(fs.statSync(asar).size / 1e6).toFixed(1)} MB, app.asar.unpacked ${fs.readdirSync(asar + '.unpacked', { recursive: true }).length} entries\n${STUB_NOTICE}`);
}
