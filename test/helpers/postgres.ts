// A real PostgreSQL for tests: a throwaway cluster in a temp dir, on 127.0.0.1 and a free port.
// Debian's postgresql package provides the binaries (.ci/run installs it); as root, the cluster
// runs as the `postgres` user, which must own its directory.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './net.js';

export interface TestPostgres {
  url: string;
  /** A new empty database on the same cluster. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`)) return `/usr/lib/postgresql/${v}/bin`;
  throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-pg-'));
  const dataDir = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => (asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }) : execFileSync(cmd, args, { stdio: 'pipe' }));
  if (asRoot) {
    fs.chmodSync(root, 0o755);
    execFileSync('chown', ['postgres', root]);
  }
  run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const args = ['-D', dataDir, '-p', String(port), '-k', root, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=100'];
  const child: ChildProcess = asRoot ? spawn('runuser', ['-u', 'postgres', '--', path.join(bin, 'postgres'), ...args], { stdio: 'pipe', detached: true }) : spawn(path.join(bin, 'postgres'), args, { stdio: 'pipe', detached: true });
  let log = '';
  child.stderr?.on('data', (d) => (log += d));
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: `${base}/postgres` });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url: `${base}/postgres`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      await client.query(`create database "${name.replace(/[^a-z0-9_]/g, '')}"`);
      await client.end();
      return `${base}/${name}`;
    },
    async stop() {
      try {
        process.kill(-child.pid!, 'SIGINT'); // fast shutdown of the whole group
      } catch {
        // already gone
      }
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
