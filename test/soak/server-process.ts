import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real Bureau server as a child process (`tsx server/cli.ts`), in its own process group so
 * that one `kill(-pgid)` takes down tsx and the node process it starts. Every group started here
 * is remembered until it is gone; `killAllServerProcesses()` (also run on process exit, and
 * when a forked test worker loses its runner) kills whatever is left, so a failing or aborted
 * test never leaks a server.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsxBin = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
const READY = /Bureau is running at (http:\/\/127\.0\.0\.1:\d+)/;

export interface ServerProcess {
  /** Process id of tsx, which leads the group (pgid === pid). */
  pid: number;
  url: string;
  child: ChildProcess;
  /** Resolves when the group leader has exited. */
  exited: Promise<void>;
  /** What the process wrote to stdout and stderr so far (for failure messages). */
  output(): string;
}

const liveGroups = new Set<number>();
process.once('exit', () => killAllServerProcesses());
// A test worker whose runner died (its IPC channel closes) may run on for minutes: its servers
// go now, and it starts no more.
let runnerGone = false;
process.once('disconnect', () => {
  runnerGone = true;
  killAllServerProcesses();
});

/** SIGKILL to every process of the group; a group that is already gone is fine. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Kills every group started by this module that may still be alive. */
export function killAllServerProcesses(): void {
  for (const pgid of liveGroups) killGroup(pgid);
  liveGroups.clear();
}

/**
 * Processes of the group that are still running. Zombies do not count: the node process tsx
 * starts is orphaned when tsx dies, and an init that does not reap leaves it as a zombie, which
 * holds no files or locks. Without /proc (not Linux) any signalable member counts.
 */
export function groupMembers(pgid: number): number[] {
  if (!fs.existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
  }
  return members;
}

async function waitUntilGroupGone(pgid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = groupMembers(pgid);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`process group ${pgid} still has running members after ${timeoutMs} ms: ${left.join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts `tsx server/cli.ts --port 0 --data-dir <dataDir> [args…]` and resolves once it prints its URL. */
export async function startServerProcess(dataDir: string, opts: { timeoutMs?: number; logLevel?: string; args?: string[] } = {}): Promise<ServerProcess> {
  if (runnerGone) throw new Error('the test runner is gone: not starting another server');
  const child = spawn(tsxBin, ['server/cli.ts', '--port', '0', '--data-dir', dataDir, '--log-level', opts.logLevel ?? 'warn', ...(opts.args ?? [])], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BUREAU_RENDERER_DIR: path.join(dataDir, 'no-renderer') },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn the server (no pid)');
  liveGroups.add(pid);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
      const onData = () => {
        const m = READY.exec(out);
        if (m) {
          clearTimeout(timer);
          child.stdout!.off('data', onData);
          resolve(m[1]);
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`server exited before it was ready (code ${code}, signal ${signal}):\n${out}`));
      });
    });
    return { pid, url, child, exited, output: () => out };
  } catch (err) {
    await killServerProcess({ pid, exited });
    throw err;
  }
}

/** SIGKILL to the whole group (sent synchronously); resolves when no member of it runs any more. */
export async function killServerProcess(server: Pick<ServerProcess, 'pid' | 'exited'>): Promise<void> {
  if (!liveGroups.has(server.pid)) return; // already gone: its pgid may belong to someone else by now
  killGroup(server.pid);
  await server.exited;
  await waitUntilGroupGone(server.pid);
  liveGroups.delete(server.pid);
}

/**
 * Graceful stop: SIGTERM to tsx alone (it relays the signal to the server, which closes its
 * database); a second SIGTERM sent to the group would kill the server mid-close. Falls back to
 * SIGKILL after `timeoutMs`. Resolves to true when the server stopped on its own.
 */
export async function stopServerProcess(server: ServerProcess, timeoutMs = 10_000): Promise<boolean> {
  server.child.kill('SIGTERM');
  const graceful = await Promise.race([server.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), timeoutMs))]);
  if (graceful) await waitUntilGroupGone(server.pid, timeoutMs).catch(() => undefined);
  await killServerProcess(server);
  return graceful && server.child.exitCode === 0;
}
