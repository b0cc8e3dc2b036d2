// An instance upgraded in place keeps its files: blobs stored in the row by older versions move to
// chunks (PostgreSQL) or on to files in the data dir (PGlite, at the first start), and read back
// byte for byte. Also: chunks of uploads a dead process left are swept at a later start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { readBlob } from '../../server/hosted/blobs.js';
import { startHosted } from '../../server/hosted/main.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-blob-upgrade-'));
let pg: TestPostgres | undefined;
afterAll(async () => {
  await pg?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The hosted migrations as they were before files left the blobs table (0000–0004). */
function oldMigrations(): string {
  const from = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../server/hosted/migrations');
  const to = path.join(tmp, 'old-migrations');
  fs.cpSync(from, to, { recursive: true });
  const journalFile = path.join(to, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 4);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return to;
}

const files = [crypto.randomBytes(2 * MiB + 100), Buffer.alloc(0), crypto.randomBytes(1000)];
const entityId = uuidv4();

/** What an older version wrote: an entity and its files in the row. */
async function seedOldStore(execute: (text: string, params: unknown[]) => Promise<unknown>): Promise<void> {
  await execute(`insert into entities (id, name, created_at) values ($1, 'Old entity', now())`, [entityId]);
  for (const data of files) await execute(`insert into blobs (entity_id, sha256, size, data, created_at) values ($1, $2, $3, $4, now())`, [entityId, sha256(data), data.length, data]);
}

describe('upgrading a store whose files are in the blobs table', () => {
  it('PGlite: moves them to files in the data dir at the first start', async () => {
    const dataDir = path.join(tmp, 'pglite');
    const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    const client = new PGlite(path.join(dataDir, 'pglite'));
    await migrate(drizzle(client), { migrationsFolder: oldMigrations() });
    await seedOldStore((text, params) => client.query(text, params));
    await client.close();

    const hosted = await startHosted({ port: 0, dataDir, logLevel: 'silent' });
    try {
      for (const data of files) {
        const sha = sha256(data);
        expect((await readBlob(hosted.ctx, entityId, sha))?.equals(data)).toBe(true);
        expect(fs.readFileSync(path.join(dataDir, 'blobs', 'sha256', sha.slice(0, 2), sha.slice(2, 4), sha)).equals(data)).toBe(true);
      }
      const left = (await hosted.ctx.store.db.execute('select (select count(*) from blob_chunks)::int as chunks, (select count(*) from blobs where upload_id is not null)::int as named')) as unknown as { rows: { chunks: number; named: number }[] };
      expect(left.rows[0]).toEqual({ chunks: 0, named: 0 });
    } finally {
      await hosted.close();
    }
  }, 120_000);

  it('PostgreSQL: moves them to chunks of at most 1 MiB; a later start sweeps chunks no upload finished', async () => {
    pg = await startPostgres();
    const databaseUrl = await pg.createDatabase('blob_upgrade');
    const [{ default: pgLib }, { drizzle }, { migrate }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')]);
    const pool = new pgLib.Pool({ connectionString: databaseUrl });
    // An idle client the server ends (the cluster stops after the file) is the pool's 'error': without a listener, an uncaught exception.
    pool.on('error', () => undefined);
    await migrate(drizzle(pool), { migrationsFolder: oldMigrations() });
    await seedOldStore((text, params) => pool.query(text, params));

    const dataDir = path.join(tmp, 'postgres');
    let hosted = await startHosted({ port: 0, dataDir, databaseUrl, logLevel: 'silent' });
    try {
      for (const data of files) expect((await readBlob(hosted.ctx, entityId, sha256(data)))?.equals(data)).toBe(true);
      const chunks = await pool.query('select length(c.data) as bytes from blob_chunks c join blobs b on b.upload_id = c.upload_id');
      expect(chunks.rows.map((r) => r.bytes).sort((a, b) => b - a)).toEqual([MiB, MiB, 1000, 100]);
      expect(fs.existsSync(path.join(dataDir, 'blobs'))).toBe(false);
    } finally {
      await hosted.close();
    }

    // A process died mid-upload two hours ago, another is uploading now.
    const abandoned = uuidv7({ msecs: Date.now() - 2 * 3600_000 });
    const underWay = uuidv7();
    for (const id of [abandoned, underWay]) await pool.query('insert into blob_chunks (upload_id, n, data) values ($1, 0, $2)', [id, Buffer.from('partial')]);
    hosted = await startHosted({ port: 0, dataDir, databaseUrl, logLevel: 'silent' });
    try {
      const left = await pool.query('select upload_id from blob_chunks where upload_id = any($1)', [[abandoned, underWay]]);
      expect(left.rows.map((r) => r.upload_id)).toEqual([underWay]);
      for (const data of files) expect((await readBlob(hosted.ctx, entityId, sha256(data)))?.equals(data)).toBe(true);
    } finally {
      await hosted.close();
      await pool.end();
    }
  }, 120_000);
});
