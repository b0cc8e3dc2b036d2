import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, startTestServer } from '../helpers/server.js';
import { groupMembers } from '../soak/server-process.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-cli-'));
/** Every process we start leads its own group, and the whole group is stopped at the end: `npm run` starts more than one process. */
const groups = new Set<number>();
function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn('npm', args, { cwd: process.cwd(), env: { ...process.env, ...env }, detached: true });
  groups.add(child.pid!);
  return child;
}
afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

function exited(child: ReturnType<typeof spawn>): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('npm run server', () => {
  it('starts headless on the given port and data dir and prints its URL when ready', async () => {
    const dataDir = path.join(tmp, 'data');
    const child = start(['run', '--silent', 'server', '--', '--port', '0', '--data-dir', dataDir], { BUREAU_RENDERER_DIR: path.join(tmp, 'no-ui') });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m) resolve(m[0]);
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
      });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'bureau.db'))).toBe(true);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited(child);
    }
  });

  it('stops with every process it started when npm gets SIGTERM', async () => {
    const child = start(['run', '--silent', 'server', '--', '--port', '0', '--data-dir', path.join(tmp, 'term')], { BUREAU_RENDERER_DIR: path.join(tmp, 'no-ui') });
    const url = await readyUrl(child);
    child.kill('SIGTERM');
    await until('the whole process group has exited', () => !groupAlive(child.pid!), undefined, () => leftOf(child.pid!));
    expect(await unreachable(url)).toBe(true);
  }, 90_000);

  it('reads BUREAU_PORT and BUREAU_DATA_DIR, and says clearly when it cannot start', async () => {
    const dataDir = path.join(tmp, 'env');
    const blocker = await startTestServer();
    try {
      const child = start(['run', '--silent', 'server'], { BUREAU_PORT: String(blocker.port), BUREAU_DATA_DIR: dataDir });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toMatch(/Bureau failed to start: .*EADDRINUSE/);
      expect(fs.existsSync(path.join(dataDir, 'bureau.db'))).toBe(true);
    } finally {
      await blocker.close();
    }
  });
});

/** Resolves with the URL the server prints once it is ready. */
function readyUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

/** Running members only: an orphaned process whose exit nobody reaped yet (a zombie) holds nothing. */
function groupAlive(pgid: number): boolean {
  return groupMembers(pgid).length > 0;
}

/** What is left of a group, for a failure message. */
function leftOf(pgid: number): string {
  return groupMembers(pgid)
    .map((pid) => {
      try {
        return `\n  ${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`;
      } catch {
        return `\n  ${pid}`;
      }
    })
    .join('');
}

/** Waits for `check`; a stop waits for the server's close (at most 10 s before it exits anyway), slower on a busy machine. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 45_000, explain: () => string = () => '') {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}${explain()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const unreachable = async (url: string) => fetch(`${url}/api/health`).then(() => false, () => true);

describe('npm start (headless, no Electron binary)', () => {
  const env = { BUREAU_FETCH_ELECTRON: '0' };

  it('SIGTERM to npm stops the server and every process it started', async () => {
    const child = start(['start', '--', '--port', '0', '--data-dir', path.join(tmp, 'start')], env);
    const url = await readyUrl(child);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    child.kill('SIGTERM'); // npm alone, as a process manager or `kill <pid>` would
    await until('the whole process group has exited', () => !groupAlive(child.pid!), undefined, () => leftOf(child.pid!));
    expect(await unreachable(url)).toBe(true);
  }, 90_000);

  it('the server stops when the launcher is killed without a chance to pass a signal on', async () => {
    const launcher = spawn(process.execPath, ['main/launch.mjs', '--port', '0', '--data-dir', path.join(tmp, 'orphan')], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      detached: true,
    });
    groups.add(launcher.pid!);
    const url = await readyUrl(launcher);
    launcher.kill('SIGKILL');
    await until('the server has stopped', () => unreachable(url));
    await until('no process of the group is left', () => !groupAlive(launcher.pid!), undefined, () => leftOf(launcher.pid!));
  }, 90_000);

  it('builds the UI and the server only when their sources changed, and says when it skips', async () => {
    // The starts above built whatever was out of date; nothing changed since.
    const launcher = spawn(process.execPath, ['main/launch.mjs', '--port', '0', '--data-dir', path.join(tmp, 'again')], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      detached: true,
    });
    groups.add(launcher.pid!);
    let out = '';
    launcher.stdout.on('data', (d) => (out += d));
    try {
      const url = await readyUrl(launcher);
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect(out).toContain('The UI is unchanged since its last build (out/renderer); not rebuilding it.');
      expect(out).toContain('The server is unchanged since its last build (out/server); not rebuilding it.');
      expect(out).not.toMatch(/Building the (UI|server)/);
      // The server runs as plain JavaScript from the build, not under tsx.
      const server = groupMembers(launcher.pid!).map((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          } catch {
            return '';
          }
        }).find((c) => c.includes('cli.mjs'));
      expect(server).toMatch(/out\/server\/[0-9a-f]{16}\/cli\.mjs/);
      expect(server).not.toContain('tsx');
    } finally {
      launcher.kill('SIGTERM');
      await until('no process of the group is left', () => !groupAlive(launcher.pid!), undefined, () => leftOf(launcher.pid!));
    }
  }, 90_000);
});

describe('logging', () => {
  it('never writes passwords, API keys, session tokens or signing paths to the log', async () => {
    let captured = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        captured += chunk;
        cb();
      },
    });
    const server = await startTestServer({ logLevel: 'trace', logDestination: sink });
    try {
      const owner = await server.signup({ password: 'super secret passphrase' });
      await server.anon.post('/api/auth/login', { email: owner.email, password: 'wrong but secret guess' });
      const key = await server.apiKeyClient(owner, ['read:helpdesk']);
      await key.get('/api/auth/me');
      await makeClient(server.url, { authorization: 'Bearer ak_forged_key_value' }).get('/api/auth/me');
      await server.anon.get('/api/sign/some-signing-token-value');
      expect(captured).toContain('"route":"/api/auth/me"');
      for (const secret of ['super secret passphrase', 'wrong but secret guess', key.key, 'ak_forged_key_value', owner.cookie.split('=')[1], 'some-signing-token-value']) {
        expect(captured).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });
});
