// A backup reads its copy in a worker of its own, never in the API's read worker: while its
// integrity check runs (held here for as long as the test needs) the unpaged lists answer. What it
// read there — counts per table and business, the files, the secrets — is what reading the
// copy on a connection here says.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { ReadPool, readPool, replaceReadPool } from '../../server/db/read-pool.js';
import { listTickets } from '../../server/helpdesk/tickets.js';
import { listDocuments } from '../../server/documents/list-documents.js';
import { extractEntry } from '../../server/backup/archive.js';
import { DB_PART, openVerifiedArchive } from '../../server/backup/manifest.js';
import { backupRuns } from '../../server/backup/tables.js';
import { appliedMigration, entitySummaries, referencedBlobs, sealedValues, tableCounts } from '../../server/backup/inspect.js';
import { cleanupBackups, PASSPHRASE, tempDir } from './backup-helpers.js';
import { draftRequest, uploadPdf } from './documents-helpers.js';

let server: TestServer;
let owner: SessionClient;
let other: SessionClient;
const scratch = tempDir('bureau-backup-reads-');
const gate = path.join(scratch, 'open');

beforeAll(async () => {
  process.env.BUREAU_TEST_INTEGRITY_GATE = gate;
  server = await startTestServer();
  owner = await server.signup();
  other = await server.signup();
  for (let i = 0; i < 5; i++) expect((await owner.post('/api/helpdesk/tickets', { subject: `Printer ${i} jams` })).status).toBe(201);
  expect((await other.post('/api/helpdesk/tickets', { subject: 'Theirs' })).status).toBe(201);
  for (let i = 0; i < 3; i++) expect((await uploadPdf(owner, { name: `Contract ${i}`, pages: i + 1 })).status).toBe(201);
  expect((await uploadPdf(other, { name: 'Their contract' })).status).toBe(201);
  // Signing links: sealed tokens, which the backup carries as secrets.
  await draftRequest(owner);
  expect((await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  delete process.env.BUREAU_TEST_INTEGRITY_GATE;
  cleanupBackups(server);
  await server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A pool of the server's file, as `readPool` starts one (to put back after a test's own). */
const readPoolOf = () => new ReadPool({ file: server.ctx.sqlite.name });
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 10));
};
const fetchAs = (client: SessionClient, p: string) => fetch(`${server.url}${p}`, { headers: { cookie: client.cookie, 'x-entity-id': client.entityId } });

describe("a backup's reads of its copy", () => {
  it('leave the API read worker free: the unpaged lists answer while the integrity check runs', async () => {
    const gated = new URL('../fixtures/read-workers/gated-integrity.mjs', import.meta.url);
    // Every list in the worker (none answered inline), the backup's checks held until the gate opens.
    const pool = new ReadPool({ file: server.ctx.sqlite.name, inlineRows: 0, workerUrl: gated, fileWorkerUrl: gated });
    const real = replaceReadPool(server.ctx, pool) ?? readPoolOf();
    try {
      const backup = owner.post('/api/backups');
      // The copy's integrity check has started (in the backup's own worker, or before this change the API's).
      await until(() => (pool.fileReads ?? 0) > 0 || pool.load.running > 0);
      for (const [p, expected] of [
        ['/api/helpdesk/tickets', () => listTickets(server.ctx, owner.entityId, {}).items],
        ['/api/documents', () => listDocuments(server.ctx, owner.entityId, { kind: 'full' }, {}).items],
      ] as const) {
        let settled = false;
        const list = fetchAs(owner, p).finally(() => (settled = true));
        // Answered, or queued behind the check in the API's read worker.
        const first = await Promise.race([list.then(() => 'answered'), until(() => settled || pool.load.waiting > 0).then(() => (settled ? 'answered' : 'queued behind the check'))]);
        expect(first, p).toBe('answered');
        const res = await list;
        expect(res.status, p).toBe(200);
        expect(await res.text(), p).toBe(JSON.stringify(expected()));
      }
      // The check is still held: the lists did not wait for it.
      expect(pool.fileReads).toBe(1);
      fs.writeFileSync(gate, '');
      const done = await backup;
      expect(done.status).toBe(201);
      expect(done.body).toMatchObject({ verified: true, secretsIncluded: true, error: null });
      // The backup's worker is gone with it.
      expect(pool.fileReads).toBe(0);
      await expectManifestOfCopy(done.body.file);
    } finally {
      fs.writeFileSync(gate, '');
      replaceReadPool(server.ctx, real);
      await pool.close();
    }
  }, 120_000);

  it('a copy that fails its check is a 409 with the problem, recorded, and no archive is left', async () => {
    const damaged = new ReadPool({ file: server.ctx.sqlite.name, fileWorkerUrl: new URL('../fixtures/read-workers/damaged-integrity.mjs', import.meta.url) });
    const real = replaceReadPool(server.ctx, damaged) ?? readPoolOf();
    const folder = (await owner.get('/api/backups/settings')).body.folder as string;
    const before = fs.readdirSync(folder).sort();
    try {
      const failed = await owner.post('/api/backups');
      expect(failed.status).toBe(409);
      expect(failed.body.error).toBe('Backup failed: The database copy failed its integrity check: *** in database main ***; Page 7: never used');
      expect(fs.readdirSync(folder).sort()).toEqual(before);
      expect((await owner.get('/api/backups/settings')).body.lastError.message).toMatch(/failed its integrity check/);
    } finally {
      replaceReadPool(server.ctx, real);
      await damaged.close();
    }
  });

  it('a backup whose check cannot run fails cleanly, and the next one works', async () => {
    const crashing = new ReadPool({ file: server.ctx.sqlite.name, fileWorkerUrl: new URL('../fixtures/read-workers/crash.mjs', import.meta.url) });
    const real = replaceReadPool(server.ctx, crashing) ?? readPoolOf();
    try {
      const failed = await owner.post('/api/backups');
      expect(failed.status).toBe(503);
      expect(failed.body.error).toMatch(/worker stopped/);
      // The API's own reads are not affected.
      expect((await fetchAs(owner, '/api/helpdesk/tickets')).status).toBe(200);
    } finally {
      replaceReadPool(server.ctx, real);
      await crashing.close();
    }
    const again = await owner.post('/api/backups');
    expect(again.status).toBe(201);
    expect(readPool(server.ctx)!.fileReads).toBe(0);
  });
});

describe('the history of backup runs', () => {
  it('is read newest first through its index, never sorted whole (status, schedule, list)', () => {
    const newest = server.ctx.db.select().from(backupRuns).where(and(eq(backupRuns.verified, true), ne(backupRuns.kind, 'export'))).orderBy(desc(backupRuns.startedAt)).limit(20).toSQL();
    const plan = (server.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${newest.sql}`).all(...newest.params) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toMatch(/backup_runs_started_idx/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    const byFile = server.ctx.db.select().from(backupRuns).where(inArray(backupRuns.file, ['/a', '/b'])).toSQL();
    expect((server.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${byFile.sql}`).all(...byFile.params) as { detail: string }[]).map((r) => r.detail).join('\n')).toMatch(/backup_runs_file_idx/);
  });
});

/** The archive's manifest says what reading its database here says: counts, businesses, files, secrets. */
async function expectManifestOfCopy(file: string) {
  const { manifest, entries } = await openVerifiedArchive(file);
  const dbFile = path.join(scratch, `copy-${Date.now()}.db`);
  await extractEntry(file, entries.get(DB_PART)!, dbFile);
  const db = new Database(dbFile, { readonly: true });
  try {
    expect(manifest.tables).toEqual(tableCounts(db));
    expect(Object.keys(manifest.tables)).toEqual(Object.keys(tableCounts(db)));
    expect(manifest.entities).toEqual(entitySummaries(db));
    expect(manifest.entities.map((e) => e.id).sort()).toEqual([owner.entityId, other.entityId].sort());
    expect(manifest.entities.find((e) => e.id === owner.entityId)!.counts).toMatchObject({ helpdesk_tickets: 5 });
    expect(manifest.migration).toEqual(appliedMigration(db));
    const blobs = referencedBlobs(db).filter((sha) => server.ctx.blobs.has(sha));
    expect(blobs.length).toBeGreaterThanOrEqual(3);
    expect(manifest.files).toEqual({ count: blobs.length, bytes: blobs.reduce((n, sha) => n + fs.statSync(server.ctx.blobs.pathOf(sha)).size, 0) });
    expect(manifest.parts.filter((p) => p.name.startsWith('blobs/')).map((p) => p.sha256)).toEqual(blobs);
    const sealed = sealedValues(db);
    expect(sealed.length).toBeGreaterThan(0);
    expect(manifest.secrets).toMatchObject({ included: true, count: sealed.length, columns: [...new Set(sealed.map((v) => `${v.table}.${v.column}`))].sort() });
  } finally {
    db.close();
  }
}
