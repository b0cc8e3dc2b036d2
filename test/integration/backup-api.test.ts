import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { backupsToPrune, backupFileName } from '../../server/backup/retention.js';
import { cleanupBackups, listTree, PASSPHRASE, tempDir } from './backup-helpers.js';

let server: TestServer;
let owner: SessionClient;
const folders: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.signup();
  expect((await owner.post('/api/helpdesk/tickets', { subject: 'Backed up' })).status).toBe(201);
});

afterAll(async () => {
  cleanupBackups(server);
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
  await server.close();
});

describe('backup settings and passphrase', () => {
  it('defaults: daily, into a folder beside (not inside) the data folder, no passphrase', async () => {
    const res = await owner.get('/api/backups/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: true, intervalHours: 24, keepDaily: 7, keepWeekly: 4, passphraseSet: false, lastBackup: null, overdue: false });
    expect(res.body.folder).toBe(`${path.resolve(server.dataDir)}-backups`);
  });

  it('refuses a folder inside the data folder, and a relative one', async () => {
    expect((await owner.put('/api/backups/settings', { folder: path.join(server.dataDir, 'backups') })).status).toBe(400);
    expect((await owner.put('/api/backups/settings', { folder: 'backups' })).status).toBe(400);
    expect((await owner.put('/api/backups/settings', { intervalHours: 0 })).status).toBe(400);
  });

  it('is for signed-in members with SETTINGS.MANAGE only, never an API key', async () => {
    const key = await server.apiKeyClient(owner, ['read:helpdesk', 'write:helpdesk']);
    expect((await key.get('/api/backups/settings', { headers: { 'x-entity-id': owner.entityId } })).status).toBe(403);
    expect((await key.post('/api/backups', undefined, { headers: { 'x-entity-id': owner.entityId } })).status).toBe(403);
  });

  it('a backup without a passphrase says it holds no secrets', async () => {
    const res = await owner.post('/api/backups');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'manual', verified: true, secretsIncluded: false, error: null });
    // A plain tar: any tar tool lists it without Bureau.
    const names = execFileSync('tar', ['-tf', res.body.file], { encoding: 'utf8' }).trim().split('\n');
    expect(names[0]).toBe('manifest.json');
    expect(names).toContain('db/bureau.db');
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', res.body.file, 'manifest.json'], { encoding: 'utf8' }));
    expect(manifest.secrets).toMatchObject({ included: false, count: 0 });
    expect(manifest.secrets.reason).toMatch(/No recovery passphrase/);
  });

  it('sets the passphrase once; changing it needs the current one', async () => {
    expect((await owner.post('/api/backups/passphrase', { passphrase: 'short' })).status).toBe(400);
    const set = await owner.post('/api/backups/passphrase', { passphrase: PASSPHRASE });
    expect(set.status).toBe(200);
    expect(set.body.passphraseSet).toBe(true);
    const again = await owner.post('/api/backups/passphrase', { passphrase: 'another long passphrase' });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/give the current one/);
    const wrong = await owner.post('/api/backups/passphrase', { passphrase: 'another long passphrase', currentPassphrase: 'not the current one' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/current recovery passphrase is wrong/);
    expect((await owner.get('/api/backups/settings')).body.passphraseSet).toBe(true);
  });

  it('lists backups with size, time and verified', async () => {
    const made = await owner.post('/api/backups');
    expect(made.status).toBe(201);
    expect(made.body.secretsIncluded).toBe(true);
    const list = await owner.get('/api/backups');
    expect(list.status).toBe(200);
    // The first backup of the day gave way to this one (retention keeps the newest of each day).
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ file: made.body.file, verified: true, secretsIncluded: true });
    expect(list.body[0].size).toBe(fs.statSync(made.body.file).size);
    const status = (await owner.get('/api/backups/settings')).body;
    expect(status.lastBackup.file).toBe(made.body.file);
    expect(Date.parse(status.nextBackupAt) - Date.parse(status.lastBackup.createdAt)).toBe(24 * 3_600_000);
  });
});

describe('a backup folder that cannot be written', () => {
  it('answers 409 with a clear error, writes nothing and leaves the data as it was', async () => {
    const dir = tempDir();
    folders.push(dir);
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'not a folder');
    expect((await owner.put('/api/backups/settings', { folder: path.join(blocker, 'backups') })).status).toBe(200);
    const res = await owner.post('/api/backups');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/not writable/);
    expect(listTree(dir)).toEqual(['a-file']);
    const status = (await owner.get('/api/backups/settings')).body;
    expect(status.lastError.message).toMatch(/not writable/);
    expect((await owner.get('/api/helpdesk/tickets')).status).toBe(200);
    expect((await owner.put('/api/backups/settings', { folder: null })).status).toBe(200);
  });
});

/** A tiny tmpfs stands for a full disk; only where this process may mount one (root on Linux). */
function mountTinyDisk(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full backup folder', () => {
  it('answers 409 "full" for a backup and an export, and leaves nothing behind', async (t) => {
    const dir = tempDir();
    folders.push(dir);
    if (!mountTinyDisk(dir)) return t.skip();
    try {
      // More than the disk holds: a file of 1 MiB referenced by a document.
      const { uploadPdf } = await import('./documents-helpers.js');
      const { PDFDocument } = await import('pdf-lib');
      const pdf = await PDFDocument.create();
      pdf.addPage();
      await pdf.attach(crypto.randomBytes(1 << 20), 'noise.bin', { mimeType: 'application/octet-stream' });
      expect((await uploadPdf(owner, { data: Buffer.from(await pdf.save()) })).status).toBe(201);
      expect((await owner.put('/api/backups/settings', { folder: path.join(dir, 'b') })).status).toBe(200);
      const res = await owner.post('/api/backups');
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/full/);
      const exp = await owner.post('/api/backups/export');
      expect(exp.status).toBe(409);
      expect(exp.body.error).toMatch(/full/);
      expect(listTree(dir)).toEqual(['b']);
    } finally {
      execFileSync('umount', [dir]);
      expect((await owner.put('/api/backups/settings', { folder: null })).status).toBe(200);
    }
  });
});

describe('the schedule', () => {
  it('backs up when due and not again until the interval has passed', async () => {
    const dataDir = tempDir();
    let now = new Date('2026-03-02T10:00:00Z');
    const s = await startTestServer({ dataDir, scheduledBackups: true, clock: { now: () => now } });
    folders.push(dataDir, `${dataDir}-backups`);
    try {
      await s.signup();
      await s.ctx.loops.runAll();
      expect(fs.readdirSync(`${dataDir}-backups`)).toEqual([backupFileName(now)]);
      now = new Date('2026-03-02T20:00:00Z');
      await s.ctx.loops.runAll();
      expect(fs.readdirSync(`${dataDir}-backups`)).toHaveLength(1);
      now = new Date('2026-03-03T10:00:01Z');
      await s.ctx.loops.runAll();
      expect(fs.readdirSync(`${dataDir}-backups`)).toHaveLength(2);
    } finally {
      await s.close();
    }
  });
});

describe('retention', () => {
  it('keeps the newest of each of 7 days and of each of 4 weeks', () => {
    const names: string[] = [];
    // Two backups a day for 60 days.
    for (let d = 0; d < 60; d++) for (const h of [3, 15]) names.push(backupFileName(new Date(Date.UTC(2026, 0, 1 + d, h))));
    const pruned = new Set(backupsToPrune([...names, 'notes.txt'], 7, 4));
    const kept = names.filter((n) => !pruned.has(n)).sort();
    expect(pruned.has('notes.txt')).toBe(false);
    // 7 daily (Feb 23 → Mar 1, 15:00) plus the newest of the 3 weeks before that week.
    expect(kept).toHaveLength(7 + 3);
    expect(kept.at(-1)).toBe(backupFileName(new Date(Date.UTC(2026, 2, 1, 15))));
    expect(kept.every((n) => n.includes('-150000'))).toBe(true);
  });
});
