import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { runBackup } from '../../server/backup/run-backup.js';
import { restoreBackup } from '../../server/backup/restore-backup.js';
import { appliedMigration, integrityCheck, readJournal, sealedValues } from '../../server/backup/inspect.js';
import { writeBackup } from '../../server/backup/create-backup.js';
import { createBlobStore } from '../../server/blobs/store.js';
import { defaultMigrationsDir, openDatabase } from '../../server/db/open.js';
import { comparableDump, cleanupBackups, dumpOfFile, listTree, login, PASSPHRASE, startWriter, tempDir } from './backup-helpers.js';
import { draftRequest, uploadPdf } from './documents-helpers.js';
import { trialBalanceIsZero } from './ledger-helpers.js';

let server: TestServer;
let owner: SessionClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  expect((await uploadPdf(owner, { pages: 2, name: 'Lease.pdf' })).status).toBe(201);
  await draftRequest(owner);
  const hook = await owner.post('/api/webhook-subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  expect(hook.status).toBe(201);
  expect((await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
});

afterAll(async () => {
  cleanupBackups(server);
  await server.close();
});

describe('a backup taken while 8 writers run', () => {
  it('restores to a database equal to the source at the backup’s moment, secrets re-sealed', async () => {
    const writers = Array.from({ length: 8 }, (_, i) => startWriter(owner, i));
    await new Promise((r) => setTimeout(r, 300));
    let atMoment = '';
    const run = await runBackup(server.ctx, 'manual', { onCopied: () => (atMoment = comparableDump(server.ctx.sqlite)) });
    await new Promise((r) => setTimeout(r, 100));
    for (const w of writers) w.stop();
    const written = (await Promise.all(writers.map((w) => w.done))).reduce((a, b) => a + b, 0);
    expect(run.verified).toBe(true);
    expect(run.secretsIncluded).toBe(true);
    // The writers went on after the copy: the source has moved on, the backup has not.
    expect(comparableDump(server.ctx.sqlite)).not.toEqual(atMoment);
    expect(written).toBeGreaterThan(16);

    const target = tempDir();
    try {
      const report = await restoreBackup({ from: run.file, dataDir: target, passphrase: PASSPHRASE });
      expect(report.secrets.missing).toEqual([]);
      expect(report.secrets.restored).toBeGreaterThanOrEqual(2); // signer token, webhook secret
      expect(report.files.count).toBeGreaterThanOrEqual(1);
      const db = new Database(path.join(target, 'bureau.db'), { readonly: true });
      try {
        expect(integrityCheck(db)).toBe('ok');
        expect(comparableDump(db)).toEqual(atMoment);
      } finally {
        db.close();
      }
      // The restored install works: sign in, the books balance, the files and secrets open.
      const restored = await startTestServer({ dataDir: target });
      try {
        const c = await login(restored, owner);
        expect(await trialBalanceIsZero(c)).toBe(true);
        const docs = await c.get('/api/documents');
        expect(docs.status).toBe(200);
        const pdf = await c.get(`/api/documents/${docs.body[0].id}/content`);
        expect(pdf.status).toBe(200);
        // Every secret opens with the new machine's key, to what it was on the old one.
        const before = new Map(sealedValues(server.ctx.sqlite).map((v) => [`${v.table}.${v.column}.${JSON.stringify(v.key)}`, server.ctx.secrets.open(v.sealed).toString('base64')]));
        const after = sealedValues(restored.ctx.sqlite);
        expect(after.length).toBeGreaterThanOrEqual(2);
        for (const v of after) expect(restored.ctx.secrets.open(v.sealed).toString('base64')).toBe(before.get(`${v.table}.${v.column}.${JSON.stringify(v.key)}`));
      } finally {
        await restored.close();
      }
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('restore refusals: a clear error and nothing written', () => {
  let good: string;
  beforeAll(async () => {
    good = (await runBackup(server.ctx, 'manual')).file;
  });

  async function refused(file: string, opts: { passphrase?: string } = {}): Promise<string> {
    const target = tempDir();
    try {
      const err = await restoreBackup({ from: file, dataDir: target, ...opts }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect(listTree(target)).toEqual([]);
      return err!.message;
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  }

  function variant(name: string, change: (b: Buffer) => Buffer): string {
    const file = path.join(path.dirname(good), `${name}.tar`);
    fs.writeFileSync(file, change(fs.readFileSync(good)));
    return file;
  }

  it('a wrong passphrase', async () => {
    expect(await refused(good, { passphrase: 'not the passphrase at all' })).toMatch(/Wrong recovery passphrase/);
  });

  it('a truncated archive', async () => {
    expect(await refused(variant('truncated', (b) => b.subarray(0, Math.floor(b.length / 2))))).toMatch(/truncated/);
  });

  it('a corrupted byte in a part (its hash does not match)', async () => {
    const file = variant('corrupt', (b) => {
      const c = Buffer.from(b);
      c[c.length - 2048] ^= 0xff;
      return c;
    });
    expect(await refused(file)).toMatch(/damaged|tampered|SHA-256/);
  });

  it('a tampered manifest hash', async () => {
    const file = variant('tampered', (b) => {
      const text = b.toString('latin1');
      const m = /"sha256": "([0-9a-f]{64})"/.exec(text)!;
      return Buffer.from(text.replace(m[1]!, m[1]!.replace(/^./, (ch) => (ch === '0' ? '1' : '0'))), 'latin1');
    });
    expect(await refused(file)).toMatch(/SHA-256 of .* does not match/);
  });

  it('an archive from a newer format version', async () => {
    const file = variant('newer', (b) => Buffer.from(b.toString('latin1').replace('"formatVersion": 1', '"formatVersion": 9'), 'latin1'));
    expect(await refused(file)).toMatch(/newer Bureau/);
  });

  it('not an archive at all', async () => {
    expect(await refused(variant('garbage', () => Buffer.from('hello')))).toMatch(/Not a Bureau backup/);
  });

  it('into a data folder that already holds an install', async () => {
    await expect(restoreBackup({ from: good, dataDir: server.dataDir })).rejects.toThrow(/already holds/);
  });

  it('without the passphrase: everything but the secrets, and it says which', async () => {
    const target = tempDir();
    try {
      const report = await restoreBackup({ from: good, dataDir: target });
      expect(report.secrets.inBackup).toBe(true);
      expect(report.secrets.restored).toBe(0);
      expect(report.secrets.missing).toEqual(expect.arrayContaining(['webhook_secrets.secret_sealed']));
      expect(fs.existsSync(path.join(target, 'bureau.db'))).toBe(true);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('secrets into a desktop data folder (key in the keychain): refused before writing', async () => {
    const target = tempDir();
    try {
      fs.writeFileSync(path.join(target, 'secret.key.sealed'), 'keychain-sealed key');
      await expect(restoreBackup({ from: good, dataDir: target, passphrase: PASSPHRASE })).rejects.toThrow(/keychain/);
      expect(listTree(target)).toEqual(['secret.key.sealed']);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('a dry run lists what would be restored and writes nothing', async () => {
    const target = tempDir();
    try {
      const report = await restoreBackup({ from: good, dataDir: target, dryRun: true, passphrase: PASSPHRASE });
      expect(report.dryRun).toBe(true);
      expect(report.entities.map((e) => e.id)).toContain(owner.entityId);
      expect(report.entities[0]!.counts.helpdesk_tickets).toBeGreaterThan(0);
      expect(listTree(target)).toEqual([]);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

it('the source data is untouched by backups', () => {
  expect(dumpOfFile(path.join(server.dataDir, 'bureau.db'))).toBeTruthy();
  expect(integrityCheck(server.ctx.sqlite)).toBe('ok');
});

it('a backup from an older schema is restored and brought up to this version', async () => {
  const dir = tempDir();
  try {
    // This version's migrations less the last two: the schema of an older Bureau.
    const older = path.join(dir, 'migrations');
    fs.cpSync(defaultMigrationsDir, older, { recursive: true });
    const journalFile = path.join(older, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
    journal.entries = journal.entries.slice(0, -2);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const { sqlite } = openDatabase(path.join(dir, 'old.db'), older);
    sqlite.prepare("INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'old@example.com', 'Old', '2026-01-01', '2026-01-01')").run();
    const file = path.join(dir, 'old.bureau-backup');
    try {
      const made = await writeBackup({ sqlite, blobs: createBlobStore(path.join(dir, 'blobs')), secrets: null, sharedConnection: true }, { file, lock: null, now: new Date() });
      expect(made.manifest.migration.tag).toBe(journal.entries.at(-1).tag);
    } finally {
      sqlite.close();
    }
    const target = path.join(dir, 'restored');
    await restoreBackup({ from: file, dataDir: target });
    const db = new Database(path.join(target, 'bureau.db'), { readonly: true });
    try {
      expect(appliedMigration(db).tag).toBe(readJournal().entries.at(-1)!.tag);
      expect(db.prepare('SELECT email FROM users').all()).toEqual([{ email: 'old@example.com' }]);
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
