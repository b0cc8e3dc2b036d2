// First step of `npm test`: the Playwright UI tests drive Debian's Chromium (Playwright's own
// browser download is not reachable everywhere). When it is missing, install it if we can (root
// with apt-get), else stop at once with the exact command to run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_COMMAND = 'sudo apt-get update && sudo apt-get install -y chromium';

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** What to do, from the facts of this machine: 'ok', 'install' (apt-get as root) or 'fail' with a message. */
export function chromiumPlan({ env, exists, isRoot, hasApt, platform }) {
  const chosen = env.CHROMIUM_PATH;
  const file = chosen || DEFAULT_CHROMIUM;
  if (exists(file)) return { action: 'ok', file };
  if (chosen) return { action: 'fail', message: `CHROMIUM_PATH is ${chosen}, but no executable is there. Point it at a Chromium or Chrome binary.` };
  if (platform === 'linux' && isRoot && hasApt) return { action: 'install', file };
  const how =
    platform === 'linux' && hasApt
      ? `Install it with:\n\n  ${INSTALL_COMMAND}\n`
      : 'Install Chromium (or Chrome) and point CHROMIUM_PATH at its binary, e.g.\n\n  CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm test\n';
  return { action: 'fail', message: `The UI tests need Chromium at ${DEFAULT_CHROMIUM}, and it is not installed. ${how}` };
}

function main() {
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  const plan = chromiumPlan({ env: process.env, exists: isExecutable, isRoot: process.getuid?.() === 0, hasApt, platform: process.platform });
  if (plan.action === 'ok') return;
  if (plan.action === 'install') {
    console.log("Chromium for the UI tests is missing: installing Debian's chromium (apt-get install -y chromium)…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
      const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (r.status !== 0) {
        console.error(`apt-get ${args.join(' ')} failed. Install Chromium yourself:\n\n  ${INSTALL_COMMAND}\n`);
        process.exit(1);
      }
    }
    if (isExecutable(plan.file)) return;
    console.error(`apt-get installed chromium, but ${plan.file} is still missing. Set CHROMIUM_PATH to its binary.`);
    process.exit(1);
  }
  console.error(plan.message);
  process.exit(1);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) main();
