import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What to run and how to tell it is listening (default: the desktop server, `server/cli.ts`). */
export interface Launch {
  /** Script and arguments after `node --import tsx`, relative to the root; `{dataDir}` is replaced. */
  args: string[];
  /** Matches the line that says the server is up; group 1 is its URL. */
  ready: RegExp;
  env?: Record<string, string>;
}

const DESKTOP: Launch = {
  args: [path.join('server', 'cli.ts'), '--port', '0', '--data-dir', '{dataDir}', '--log-level', 'error'],
  ready: /Bureau is running at (http:\/\/\S+)/,
};

/**
 * The real Bureau server as a child process (`server/cli.ts` under tsx, or another launch such as
 * the hosted instance's), in its own process group. A request that kills the server kills only this child, never the vitest worker, and
 * the fuzz can restart it on the same data dir (same users, keys and ids) and go on.
 */
export class ServerProcess {
  url = '';
  /** Server log lines (pino JSON, level error and above) and stderr, newest last. */
  readonly log: string[] = [];
  /** Lines logged since the first start (the buffer keeps only the last 500). */
  logCount = 0;
  private child: ChildProcess | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(
    /** Repository root whose `server/cli.ts` runs (FUZZ_SERVER_DIR replays against another checkout). */
    readonly root: string,
    readonly dataDir: string,
    readonly launch: Launch = DESKTOP,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== null && this.exit === null;
  }

  /** How the process ended, for failure reports (`null` while it runs). */
  get exitInfo(): string | null {
    if (!this.exit) return null;
    return this.exit.signal ? `killed by ${this.exit.signal}` : `exit code ${this.exit.code}`;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    if (this.alive) throw new Error('server already running');
    this.exit = null;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ...this.launch.args.map((a) => a.replace('{dataDir}', this.dataDir))],
      {
        cwd: this.root,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BUREAU_RENDERER_DIR: path.join(this.dataDir, 'no-ui'), NODE_OPTIONS: '', ...this.launch.env },
      },
    );
    this.child = child;
    const mark = this.logCount;
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
    const lines = (prefix: string) => {
      let rest = '';
      return (chunk: Buffer) => {
        rest += chunk.toString('utf8');
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        for (const p of parts) if (p.trim()) this.pushLog(prefix + p);
      };
    };
    child.stdout!.on('data', lines(''));
    child.stderr!.on('data', lines('stderr: '));
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms:\n${this.log.slice(-20).join('\n')}`)), timeoutMs);
      const onData = () => {
        const m = this.logSince(mark)
          .map((l) => this.launch.ready.exec(l))
          .find(Boolean);
        if (m) {
          clearTimeout(timer);
          child.stdout!.off('data', onData);
          resolve(m[1]);
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`server exited while starting (${this.exitInfo}):\n${this.log.slice(-20).join('\n')}`));
      });
    });
  }

  /** Resident set size of the server process in bytes (Linux /proc). */
  rssBytes(): number | null {
    if (!this.alive || !this.pid) return null;
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return m ? Number(m[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  /** Stops the whole process group: SIGTERM, then SIGKILL if it lingers. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !child.pid || this.exit) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  /** Lines logged after `logCount` was `since`. */
  logSince(since: number): string[] {
    return this.log.slice(Math.max(0, this.log.length - (this.logCount - since)));
  }

  private pushLog(line: string) {
    this.logCount++;
    this.log.push(line);
    if (this.log.length > 500) this.log.splice(0, this.log.length - 500);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
