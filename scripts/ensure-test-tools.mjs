// First step of `npm test`: the suites drive real programs from Debian — Chromium (the Playwright
// UI tests; Playwright's own browser download is not reachable everywhere), Dovecot (the helpdesk
// IMAP tests) and PostgreSQL (the hosted instance's suites). When one is missing, install it if we
// can (root with apt-get), else stop at once with the exact command to run: a green run is the
// whole suite, never one that skipped what it could not find.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_COMMAND = 'sudo apt-get update && sudo apt-get install -y chromium';

/** The Debian tools besides Chromium: where the tests look for them, and their package. */
export const SYSTEM_TOOLS = [
  { name: 'Dovecot', usedBy: 'the helpdesk e-mail (IMAP) tests', pkg: 'dovecot-imapd', files: ['/usr/sbin/dovecot', '/usr/bin/dovecot'] },
  { name: 'PostgreSQL', usedBy: "the hosted instance's PostgreSQL tests", pkg: 'postgresql', files: ['/usr/lib/postgresql/*/bin/postgres'] },
];

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `/usr/lib/postgresql/*\/bin/postgres`: one `*` for a version directory. */
function existsPattern(pattern) {
  const star = pattern.indexOf('*');
  if (star < 0) return isExecutable(pattern);
  const dir = pattern.slice(0, star);
  const rest = pattern.slice(star + 1);
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  return entries.some((e) => isExecutable(`${dir}${e}${rest}`));
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

/** The same for Dovecot and PostgreSQL: the packages to install, or why the run stops. */
export function systemToolsPlan({ exists, isRoot, hasApt, platform }) {
  const missing = SYSTEM_TOOLS.filter((t) => !t.files.some((f) => exists(f)));
  if (missing.length === 0) return { action: 'ok', packages: [] };
  const packages = missing.map((t) => t.pkg);
  if (platform === 'linux' && isRoot && hasApt) return { action: 'install', packages };
  const what = missing.map((t) => `${t.name} (${t.usedBy})`).join(' and ');
  const how = hasApt ? `Install with:\n\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n` : `Install ${missing.map((t) => t.name).join(' and ')} from your system's packages.\n`;
  return { action: 'fail', message: `The tests need ${what}, not installed here. ${how}` };
}

function aptInstall(packages, command) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed. Install them yourself:\n\n  ${command}\n`);
      process.exit(1);
    }
  }
}

function main() {
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  const facts = { env: process.env, isRoot: process.getuid?.() === 0, hasApt, platform: process.platform };
  const plan = chromiumPlan({ ...facts, exists: isExecutable });
  if (plan.action === 'install') {
    console.log("Chromium for the UI tests is missing: installing Debian's chromium (apt-get install -y chromium)…");
    aptInstall(['chromium'], INSTALL_COMMAND);
    if (!isExecutable(plan.file)) {
      console.error(`apt-get installed chromium, but ${plan.file} is still missing. Set CHROMIUM_PATH to its binary.`);
      process.exit(1);
    }
  } else if (plan.action === 'fail') {
    console.error(plan.message);
    process.exit(1);
  }
  const tools = systemToolsPlan({ ...facts, exists: existsPattern });
  if (tools.action === 'install') {
    console.log(`Missing for the tests: installing ${tools.packages.join(', ')} (apt-get install -y)…`);
    aptInstall(tools.packages, `sudo apt-get update && sudo apt-get install -y ${tools.packages.join(' ')}`);
    const still = systemToolsPlan({ ...facts, exists: existsPattern });
    if (still.action !== 'ok') {
      console.error(`apt-get ran, but ${still.packages.join(', ')} still missing.`);
      process.exit(1);
    }
  } else if (tools.action === 'fail') {
    console.error(tools.message);
    process.exit(1);
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) main();
