// Opens the hosted instance's database: PGlite in the data dir (no setup), or PostgreSQL when a
// `postgres://` URL is given. One drizzle pg-core schema and one migration set serve both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { BlobStore } from '../blobs/index.js';
import { moveChunksToFiles, openBlobFiles } from './blob-files.js';
import { sweepAbandonedChunks } from './blob-chunks.js';
import * as schema from './schema.js';

export type HostedDb = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What a use case receives inside `db.transaction(...)`. */
export type HostedTx = Parameters<Parameters<HostedDb['transaction']>[0]>[0];

export interface HostedStore {
  db: HostedDb;
  kind: 'pglite' | 'postgres';
  /**
   * PGlite only: where files' bytes are (content-addressed, in the data dir). PostgreSQL keeps
   * them in `blob_chunks`: several processes share the database, not a disk.
   */
  files?: BlobStore;
  /** PostgreSQL only: NOTIFY other processes on the same database. */
  notify?(channel: string, payload: string): Promise<void>;
  /** PostgreSQL only: LISTEN on a dedicated connection; returns how to stop. */
  subscribe?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any fixed number: hosted processes starting together on one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK = 7_402_113;

export async function openHostedStore(opts: { dataDir: string; databaseUrl?: string }): Promise<HostedStore> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir);
}

async function openPglite(dataDir: string): Promise<HostedStore> {
  const [{ openPgliteThread }, { drizzle }, { migrate }] = await Promise.all([import('./pglite-thread.js'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // PGlite's storage I/O is synchronous: in a thread of its own, a large read holds that thread, not the API's.
  const client = await openPgliteThread(dir);
  const db = drizzle({ client: client as unknown as PGlite, schema });
  await migrate(db, { migrationsFolder });
  const files = openBlobFiles(dataDir);
  await moveChunksToFiles(db as unknown as HostedDb, files);
  return { db: db as unknown as HostedDb, kind: 'pglite', files, close: () => client.close() };
}

async function openPostgres(url: string): Promise<HostedStore> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')]);
  // int8 as number: seqs stay far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that breaks (PostgreSQL restarted, a failover, an administrator's terminate)
  // is reported here and dropped from the pool; the next query opens a new one. Unheard, the
  // 'error' event would end the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(db, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  await sweepAbandonedChunks(db as unknown as HostedDb, new Date());
  return {
    db: db as unknown as HostedDb,
    kind: 'postgres',
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async subscribe(channel, onMessage) {
      const listener = await pool.connect();
      listener.on('notification', (m) => {
        if (m.channel === channel && m.payload) onMessage(m.payload);
      });
      // A listener whose connection broke would miss wake-ups silently: waiting pulls still look again every few seconds.
      listener.on('error', () => undefined);
      await listener.query(`LISTEN ${channel}`);
      return async () => {
        await listener.query(`UNLISTEN ${channel}`).catch(() => undefined);
        listener.release();
      };
    },
    close: () => pool.end(),
  };
}
