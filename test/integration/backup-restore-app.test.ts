import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type SessionClient, type TestServer } from '../helpers/server.js';
import { sealedValues, userTables, canonicalDump } from '../../server/backup/inspect.js';
import { createKeySecretBox } from '../../server/secrets.js';
import { restoreBackup } from '../../server/backup/restore-backup.js';
import type Database from 'better-sqlite3';
import { cleanupBackups, comparableDump, listTree, login, PASSPHRASE, tempDir } from './backup-helpers.js';
import { draftRequest, uploadPdf } from './documents-helpers.js';
import { invoice, postEvent, trialBalanceIsZero } from './ledger-helpers.js';
import { extractDocumentTexts } from '../../server/documents/extract-texts.js';

/**
 * Restore from a backup on the set-up screen of a running fresh install, and Import business,
 * both from an uploaded archive (the archive streamed as the raw body).
 */

let a: TestServer;
let owner: SessionClient;
let backupFile: string;
let exportFile: string;
let atBackup: Record<string, unknown>;
let secretsAtBackup: Map<string, string>;

const keyOf = (v: { table: string; column: string; key: unknown }) => `${v.table}.${v.column}.${JSON.stringify(v.key)}`;

/**
 * The install's rows without what a restore deliberately keeps of the restoring install (its sync
 * clock id), and without the full-text index's internal segments (rebuilt, not copied: the
 * indexed rows themselves are compared through the virtual table).
 */
function restorableDump(db: Database.Database): Record<string, unknown> {
  const dump = JSON.parse(comparableDump(db)) as Record<string, unknown>;
  delete dump.sync_node;
  for (const index of ['helpdesk_search', 'helpdesk_subject_trigrams', 'documents_search', 'ledger_search']) for (const shadow of ['data', 'idx', 'content', 'docsize', 'config']) delete dump[`${index}_${shadow}`];
  return dump;
}

function upload(c: Client, p: string, body: Buffer, type = 'application/octet-stream') {
  return c.request('POST', p, { raw: new Uint8Array(body), headers: { 'content-type': type } });
}

beforeAll(async () => {
  a = await startTestServer();
  owner = await a.signup({ entityName: 'Acme Repairs' });
  for (let i = 0; i < 3; i++) expect((await owner.post('/api/helpdesk/tickets', { subject: `Broken thing ${i}`, description: 'it broke' })).status).toBe(201);
  for (let i = 0; i < 3; i++) await postEvent(owner, invoice(`${10 + i}.00`, '2.00'));
  expect((await uploadPdf(owner, { pages: 2, name: 'Lease.pdf' })).status).toBe(201);
  await draftRequest(owner);
  expect((await owner.post('/api/webhook-subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).status).toBe(201);
  expect((await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
  // The PDFs' text is read after the upload: read before the backup, so it is in it.
  await extractDocumentTexts(a.ctx);
  const made = await owner.post('/api/backups');
  expect(made.status).toBe(201);
  backupFile = made.body.file;
  atBackup = restorableDump(a.ctx.sqlite);
  secretsAtBackup = new Map(sealedValues(a.ctx.sqlite).map((v) => [keyOf(v), a.ctx.secrets.open(v.sealed).toString('base64')]));
  const exported = await owner.post(`/api/backups/export?entityId=${owner.entityId}`);
  expect(exported.status).toBe(201);
  exportFile = exported.body.file;
});

afterAll(async () => {
  cleanupBackups(a);
  await a.close();
});

/** Nothing of a refused restore is left: no account, no business, no files, no upload, no staging folder. */
function expectStillFresh(s: TestServer): void {
  expect(s.ctx.sqlite.prepare('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM entities) + (SELECT count(*) FROM helpdesk_tickets) AS n').get()).toEqual({ n: 0 });
  expect(listTree(path.join(s.dataDir, 'blobs'))).toEqual([]);
  expect(listTree(path.join(s.dataDir, 'archive-uploads')).filter((n) => n.endsWith('.bureau-upload'))).toEqual([]);
  expect(fs.readdirSync(s.dataDir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
}

describe('Restore from a backup on a fresh install (by upload)', () => {
  it('answers the dry run, refuses a wrong passphrase, restores with the right one, then signs in', async () => {
    const b = await startTestServer();
    try {
      const up = await upload(b.anon, '/api/setup/restore/uploads', fs.readFileSync(backupFile));
      expect(up.status).toBe(201);
      expect(up.body.report).toMatchObject({ dryRun: true, secrets: { inBackup: true, restored: 0 } });
      expect(up.body.report.entities.map((e: { id: string }) => e.id)).toEqual([owner.entityId]);
      expect(up.body.report.entities[0].counts.helpdesk_tickets).toBe(3);
      expect(up.body.report.files.count).toBeGreaterThanOrEqual(1);
      // Still fresh after the dry run.
      expect((await b.anon.get('/api/auth/setup')).body).toEqual({ setupNeeded: true });

      const dry = await b.anon.post('/api/setup/restore', { upload: up.body.upload, passphrase: PASSPHRASE, dryRun: true });
      expect(dry.status).toBe(200);
      expect(dry.body.secrets).toMatchObject({ inBackup: true, missing: [] });

      const wrong = await b.anon.post('/api/setup/restore', { upload: up.body.upload, passphrase: 'not the passphrase at all' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatch(/Wrong recovery passphrase/);
      expect(b.ctx.sqlite.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 0 });
      expect(listTree(path.join(b.dataDir, 'blobs'))).toEqual([]);

      const ok = await b.anon.post('/api/setup/restore', { upload: up.body.upload, passphrase: PASSPHRASE });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ dryRun: false, secrets: { inBackup: true, missing: [] } });
      expect(ok.body.secrets.restored).toBe(secretsAtBackup.size);
      // The running server now holds the backup's rows exactly; the upload is gone.
      expect(restorableDump(b.ctx.sqlite)).toEqual(atBackup);
      expect(listTree(path.join(b.dataDir, 'archive-uploads'))).toEqual([]);
      // Every secret opens with this install's own key (ctx.secrets), to what it was.
      const after = sealedValues(b.ctx.sqlite);
      expect(after.length).toBe(secretsAtBackup.size);
      for (const v of after) expect(b.ctx.secrets.open(v.sealed).toString('base64')).toBe(secretsAtBackup.get(keyOf(v)));

      // Sign in with the restored account; the business works.
      expect((await b.anon.get('/api/auth/setup')).body).toEqual({ setupNeeded: false });
      const c = await login(b, owner);
      expect(await trialBalanceIsZero(c)).toBe(true);
      expect((await c.get('/api/helpdesk/tickets')).body).toHaveLength(3);
      expect((await c.get('/api/helpdesk/tickets?q=broken')).body).toHaveLength(3); // the full-text index came back
      expect((await c.post('/api/helpdesk/tickets', { subject: 'After the restore' })).status).toBe(201);
      expect((await c.get('/api/helpdesk/tickets?q=restore')).body).toHaveLength(1);
      const docs = await c.get('/api/documents');
      expect((await c.get(`/api/documents/${docs.body[0].id}/content`)).status).toBe(200);

      // Set up now: the set-up routes refuse.
      const again = await upload(b.anon, '/api/setup/restore/uploads', fs.readFileSync(backupFile));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(/already set up/);
      const byPath = await b.anon.post('/api/setup/restore', { file: backupFile, passphrase: PASSPHRASE });
      expect(byPath.status).toBe(409);
      expect(listTree(path.join(b.dataDir, 'archive-uploads'))).toEqual([]);
    } finally {
      cleanupBackups(b);
      await b.close();
    }
  });

  it('from a path on this machine, into a keychain-backed install: secrets re-sealed by its own key', async () => {
    // The desktop's box: a key the restore command cannot reach (no secret.key in the folder).
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'secret.key.sealed'), 'held by the keychain');
    const box = createKeySecretBox(crypto.randomBytes(32));
    const b = await startTestServer({ dataDir, secrets: box });
    try {
      // The CLI cannot restore secrets there.
      await expect(restoreBackup({ from: backupFile, dataDir: tempDir(), passphrase: PASSPHRASE, dryRun: true })).resolves.toBeTruthy();
      await expect(restoreBackup({ from: backupFile, dataDir, passphrase: PASSPHRASE, dryRun: true })).rejects.toThrow(/keychain/);
      const ok = await b.anon.post('/api/setup/restore', { file: backupFile, passphrase: PASSPHRASE });
      expect(ok.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
      const after = sealedValues(b.ctx.sqlite);
      expect(after.length).toBe(secretsAtBackup.size);
      for (const v of after) expect(box.open(v.sealed).toString('base64')).toBe(secretsAtBackup.get(keyOf(v)));
      const c = await login(b, owner);
      expect((await c.get('/api/webhook-subscriptions')).status).toBe(200);
      expect(fs.existsSync(backupFile)).toBe(true); // a path is read, never moved
    } finally {
      await b.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('without the passphrase: everything but the secrets, and it says which', async () => {
    const b = await startTestServer();
    try {
      const ok = await b.anon.post('/api/setup/restore', { file: backupFile });
      expect(ok.status).toBe(200);
      expect(ok.body.secrets).toMatchObject({ inBackup: true, restored: 0 });
      expect(ok.body.secrets.missing).toContain('webhook_secrets.secret_sealed');
      expect(ok.body.secrets.note).toMatch(/No passphrase given/);
      const c = await login(b, owner);
      expect((await c.get('/api/helpdesk/tickets')).body).toHaveLength(3);
    } finally {
      cleanupBackups(b);
      await b.close();
    }
  });

  it('a failure inside the swap rolls back to the fresh install as it was; the same upload restores after', async () => {
    const b = await startTestServer();
    try {
      const up = await upload(b.anon, '/api/setup/restore/uploads', fs.readFileSync(backupFile));
      expect(up.status).toBe(201);
      const schema = () => b.ctx.sqlite.prepare("SELECT type, name, sql FROM main.sqlite_master ORDER BY type, name").all();
      const before = { schema: schema(), dump: canonicalDump(b.ctx.sqlite) };
      // A fault in the middle of the copy (after the live triggers were set aside and rows deleted).
      b.ctx.sqlite.exec("CREATE TEMP TRIGGER fail_restore BEFORE INSERT ON main.helpdesk_tickets BEGIN SELECT RAISE(ABORT, 'injected fault'); END");
      const failed = await b.anon.post('/api/setup/restore', { upload: up.body.upload, passphrase: PASSPHRASE });
      expect(failed.status).toBe(500);
      expect(schema()).toEqual(before.schema); // the triggers are back
      expect(canonicalDump(b.ctx.sqlite)).toEqual(before.dump);
      expect(listTree(path.join(b.dataDir, 'blobs')).filter((n) => !fs.statSync(path.join(b.dataDir, 'blobs', n)).isDirectory())).toEqual([]);
      expect(fs.readdirSync(b.dataDir).filter((n) => n.startsWith('.restore-'))).toEqual([]);
      expect((await b.anon.get('/api/auth/setup')).body).toEqual({ setupNeeded: true });

      b.ctx.sqlite.exec('DROP TRIGGER temp.fail_restore');
      const ok = await b.anon.post('/api/setup/restore', { upload: up.body.upload, passphrase: PASSPHRASE });
      expect(ok.status).toBe(200);
      expect(restorableDump(b.ctx.sqlite)).toEqual(atBackup);
      expect((await (await login(b, owner)).get('/api/helpdesk/tickets')).body).toHaveLength(3);
    } finally {
      cleanupBackups(b);
      await b.close();
    }
  });

  it('bad input: a clear error and the fresh install as it was', async () => {
    const b = await startTestServer({ maxArchiveUploadBytes: 4 * 1024 * 1024 });
    try {
      const bytes = fs.readFileSync(backupFile);
      expect(bytes.length).toBeLessThan(4 * 1024 * 1024);
      const cases: [string, Buffer, number, RegExp][] = [
        ['not an archive', crypto.randomBytes(5000), 400, /Not a Bureau backup/],
        ['truncated', bytes.subarray(0, Math.floor(bytes.length / 2)), 400, /truncated/],
        ['empty', Buffer.alloc(0), 400, /empty/],
        ['an export of one business', fs.readFileSync(exportFile), 400, /export of one business/],
        ['too large', Buffer.concat([bytes, crypto.randomBytes(4 * 1024 * 1024)]), 413, /larger than/],
      ];
      for (const [what, body, status, message] of cases) {
        const res = await upload(b.anon, '/api/setup/restore/uploads', body);
        expect(res.status, what).toBe(status);
        expect(res.body.error, what).toMatch(message);
        expectStillFresh(b);
      }
      const tampered = Buffer.from(bytes);
      tampered[tampered.length - 3000] ^= 0xff;
      const bad = await upload(b.anon, '/api/setup/restore/uploads', tampered);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/damaged|tampered/);
      const form = await upload(b.anon, '/api/setup/restore/uploads', bytes, 'text/plain');
      expect(form.status).toBe(415);
      expect((await b.anon.post('/api/setup/restore', { upload: '0'.repeat(32) })).status).toBe(404);
      expect((await b.anon.post('/api/setup/restore', {})).status).toBe(400);
      expect((await b.anon.post('/api/setup/restore', { file: path.join(b.dataDir, 'nothing-here') })).body.error).toMatch(/No such backup file/);
      const wrong = await b.anon.post('/api/setup/restore', { file: backupFile, passphrase: 'not the passphrase at all' });
      expect(wrong.status).toBe(400);
      expectStillFresh(b);
    } finally {
      await b.close();
    }
  });
});

describe('Import business by upload', () => {
  it('dry run first, then the import; a second one is refused with 409 and nothing written', async () => {
    const b = await startTestServer();
    try {
      const other = await b.signup({ entityName: 'Someone else' });
      const up = await upload(other, '/api/backups/import/uploads', fs.readFileSync(exportFile));
      expect(up.status).toBe(201);
      expect(up.body.report).toMatchObject({ dryRun: true, entity: { id: owner.entityId, name: 'Acme Repairs' }, secrets: { inExport: true } });
      expect(up.body.report.tables.helpdesk_tickets).toBe(3);
      expect((await other.get('/api/entities')).body.map((e: { id: string }) => e.id)).not.toContain(owner.entityId);

      const dry = await other.post('/api/backups/import', { upload: up.body.upload, passphrase: PASSPHRASE, dryRun: true });
      expect(dry.status).toBe(200);
      expect(dry.body.secrets.missing).toEqual([]);
      const wrong = await other.post('/api/backups/import', { upload: up.body.upload, passphrase: 'not the passphrase at all' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatch(/Wrong recovery passphrase/);

      const done = await other.post('/api/backups/import', { upload: up.body.upload, passphrase: PASSPHRASE });
      expect(done.status).toBe(201);
      expect(done.body).toMatchObject({ dryRun: false, entity: { id: owner.entityId } });
      expect(done.body.secrets.restored).toBeGreaterThan(0);
      expect((await other.get('/api/entities')).body.map((e: { id: string }) => e.id)).toContain(owner.entityId);
      const sealed = b.ctx.sqlite.prepare('SELECT secret_sealed AS s FROM webhook_secrets WHERE entity_id = ?').all(owner.entityId) as { s: string }[];
      for (const r of sealed) expect(b.ctx.secrets.open(r.s).toString('utf8')).toMatch(/^whsec_/);

      const before = canonicalDump(b.ctx.sqlite, userTables(b.ctx.sqlite).filter((t) => t !== 'sessions'));
      const twice = await upload(other, '/api/backups/import/uploads', fs.readFileSync(exportFile));
      expect(twice.status).toBe(409);
      expect(twice.body.error).toMatch(/already has the business/);
      expect(listTree(path.join(b.dataDir, 'archive-uploads'))).toEqual([]);
      expect(canonicalDump(b.ctx.sqlite, userTables(b.ctx.sqlite).filter((t) => t !== 'sessions'))).toEqual(before);
    } finally {
      cleanupBackups(b);
      await b.close();
    }
  });

  it('bad input: not an export, truncated, a whole-install backup, too large, signed out', async () => {
    const b = await startTestServer({ maxArchiveUploadBytes: 4 * 1024 * 1024 });
    try {
      const other = await b.signup();
      const bytes = fs.readFileSync(exportFile);
      const cases: [string, Buffer, number, RegExp][] = [
        ['not an archive', crypto.randomBytes(5000), 400, /Not a Bureau backup/],
        ['truncated', bytes.subarray(0, bytes.length - 2000), 400, /truncated/],
        ['a whole-install backup', fs.readFileSync(backupFile), 400, /whole install/],
        ['too large', Buffer.concat([bytes, crypto.randomBytes(4 * 1024 * 1024)]), 413, /larger than/],
      ];
      for (const [what, body, status, message] of cases) {
        const res = await upload(other, '/api/backups/import/uploads', body);
        expect(res.status, what).toBe(status);
        expect(res.body.error, what).toMatch(message);
      }
      expect((await upload(b.anon, '/api/backups/import/uploads', bytes)).status).toBe(401);
      expect(listTree(path.join(b.dataDir, 'archive-uploads'))).toEqual([]);
      expect(listTree(path.join(b.dataDir, 'blobs'))).toEqual([]);
      expect((await other.get('/api/entities')).body).toHaveLength(1);
    } finally {
      await b.close();
    }
  });
});
