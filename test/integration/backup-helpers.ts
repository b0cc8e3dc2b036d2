import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeClient, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { canonicalDump, columnsOf, userTables } from '../../server/backup/inspect.js';
import { invoice, postEvent } from './ledger-helpers.js';

export const PASSPHRASE = 'a long recovery passphrase';

export function tempDir(prefix = 'bureau-backup-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The folder the server backs up into by default: removed with the test's data folder. */
export function cleanupBackups(server: TestServer): void {
  fs.rmSync(`${path.resolve(server.dataDir)}-backups`, { recursive: true, force: true });
}

/**
 * Every table's rows in key order, with machine-sealed values blanked (a restore re-seals them
 * under the new machine's key) and the backup log left out (it records the backup itself).
 */
export function comparableDump(db: Database.Database): string {
  const tables = userTables(db).filter((t) => t !== 'backup_runs');
  const dump = JSON.parse(canonicalDump(db, tables)) as Record<string, unknown[][]>;
  for (const t of tables) {
    const sealed = columnsOf(db, t)
      .map((c, i) => (c.name.endsWith('_sealed') ? i : -1))
      .filter((i) => i >= 0);
    for (const row of dump[t]!) for (const i of sealed) row[i] = '<sealed>';
  }
  return JSON.stringify(dump);
}

export function dumpOfFile(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return comparableDump(db);
  } finally {
    db.close();
  }
}

/** Writes tickets and ledger events until `stop()`; resolves to how many it wrote. */
export function startWriter(c: Client, n: number): { stop(): void; done: Promise<number> } {
  let stopped = false;
  const done = (async () => {
    let count = 0;
    while (!stopped) {
      if (count % 2 === 0) {
        const res = await c.post('/api/helpdesk/tickets', { subject: `Writer ${n} ticket ${count}` });
        if (res.status !== 201) throw new Error(`ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
      } else await postEvent(c, invoice(`${100 + n}.00`, '20.00'));
      count++;
    }
    return count;
  })();
  return { stop: () => (stopped = true), done };
}

export async function login(server: Pick<TestServer, 'url' | 'anon'>, owner: Pick<SessionClient, 'email' | 'password' | 'entityId'>): Promise<Client> {
  const res = await server.anon.post('/api/auth/login', { email: owner.email, password: owner.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return makeClient(server.url, { cookie, origin: server.url, 'x-entity-id': owner.entityId });
}

/** Every file and folder under `dir` (relative), for "nothing was written" checks. */
export function listTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}
