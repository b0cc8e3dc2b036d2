// The hosted instance as a child process in its own process group (`npm run hosted` without npm):
// PGlite in `dataDir`, or PostgreSQL when `databaseUrl` is given. Its output goes to a log file
// beside the data dir, for failure messages.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface HostedProcess {
  child: ChildProcess;
  url: string;
  logFile: string;
}

export function startHostedProcess(opts: { dataDir: string; port?: number; databaseUrl?: string; args?: string[] }): Promise<HostedProcess> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/hosted/cli.ts', '--port', String(opts.port ?? 0), '--data-dir', opts.dataDir, '--log-level', 'error', ...(opts.args ?? [])], {
    cwd: process.cwd(),
    env: { ...process.env, ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}) },
    detached: true,
  });
  const logFile = `${opts.dataDir}.${child.pid}.log`;
  const log = fs.createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve({ child, url: m[0], logFile });
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`hosted exited with ${code}: ${out}`)));
  });
}

/** SIGKILL to the whole group; resolves when the process has exited. */
export async function killHostedProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    return;
  }
  await exited;
}
