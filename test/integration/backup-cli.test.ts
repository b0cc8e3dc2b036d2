import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, type Client } from '../helpers/server.js';
import { killServerProcess, startServerProcess, stopServerProcess } from '../soak/server-process.js';
import { openVerifiedArchive } from '../../server/backup/manifest.js';
import { integrityCheck } from '../../server/backup/inspect.js';
import { listTree, PASSPHRASE, tempDir } from './backup-helpers.js';
import Database from 'better-sqlite3';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});

function npm(script: string, args: string[]): { code: number; out: string } {
  const r = spawnSync('npm', ['run', '-s', script, '--', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/** A PDF carrying `bytes` of random data (an attachment), so that backups take a while. */
async function bulkyPdf(bytes: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await pdf.attach(crypto.randomBytes(bytes), 'noise.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await pdf.save());
}

async function signupOn(url: string): Promise<Client & { entityId: string; email: string }> {
  const anon = makeClient(url);
  const email = `cli-${Date.now()}@example.com`;
  const res = await anon.post('/api/auth/signup', { email, password: 'correct horse battery staple', name: 'Cli', entityName: 'Cli business' });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { ...makeClient(url, { cookie, origin: url, 'x-entity-id': res.body.entity.id }), entityId: res.body.entity.id, email };
}

describe('kill -9 during a backup', () => {
  it('leaves the earlier backups readable and the data intact', async () => {
    const dataDir = tempDir();
    const backups = `${dataDir}-backups`;
    cleanup.push(dataDir, backups);
    let proc = await startServerProcess(dataDir);
    try {
      const c = await signupOn(proc.url);
      for (let i = 0; i < 20; i++) expect((await c.post('/api/helpdesk/tickets', { subject: `Ticket ${i}` })).status).toBe(201);
      for (let i = 0; i < 4; i++) {
        const data = await bulkyPdf(4 << 20);
        expect((await c.request('POST', `/api/documents?name=bulky-${i}.pdf`, { raw: new Uint8Array(data), headers: { 'content-type': 'application/pdf' } })).status).toBe(201);
      }
      const earlier = await c.post('/api/backups');
      expect(earlier.status).toBe(201);
      const earlierBytes = fs.readFileSync(earlier.body.file);

      // The next backup: killed as soon as its temporary files appear.
      void c.post('/api/backups').catch(() => undefined);
      const deadline = Date.now() + 20_000;
      while (!fs.readdirSync(backups).some((n) => n.startsWith('.bureau-tmp-') || n.endsWith('.bureau-partial'))) {
        if (Date.now() > deadline) throw new Error('the backup never started');
        await new Promise((r) => setImmediate(r));
      }
      await killServerProcess(proc);

      // Earlier backup: unchanged, and every hash still checks.
      expect(fs.readFileSync(earlier.body.file).equals(earlierBytes)).toBe(true);
      await openVerifiedArchive(earlier.body.file);
      // No torn archive under a final name: only the earlier one, and leftovers with temporary names.
      const finals = fs.readdirSync(backups).filter((n) => n.endsWith('.bureau-backup'));
      expect(finals).toEqual([path.basename(earlier.body.file)]);
      // The data: intact and all there.
      const db = new Database(path.join(dataDir, 'bureau.db'));
      try {
        expect(integrityCheck(db)).toBe('ok');
        expect((db.prepare('SELECT count(*) AS n FROM helpdesk_tickets').get() as { n: number }).n).toBe(20);
      } finally {
        db.close();
      }
      // The next start backs up again and clears what the killed one left.
      proc = await startServerProcess(dataDir);
      const again = await makeClient(proc.url).post('/api/auth/login', { email: c.email, password: 'correct horse battery staple' });
      expect(again.status).toBe(200);
      const c2 = makeClient(proc.url, { cookie: (again.headers.get('set-cookie') ?? '').split(';')[0]!, origin: proc.url, 'x-entity-id': c.entityId });
      expect((await c2.post('/api/backups')).status).toBe(201);
      expect(fs.readdirSync(backups).filter((n) => n.startsWith('.bureau-tmp-') || n.endsWith('.bureau-partial'))).toEqual([]);
    } finally {
      await stopServerProcess(proc);
    }
  }, 120_000);
});

describe('npm run backup / npm run restore', () => {
  it('backs up a data folder in use, lists a dry run, restores with the passphrase file, refuses a wrong one', async () => {
    const dataDir = tempDir();
    const out = tempDir();
    cleanup.push(dataDir, `${dataDir}-backups`, out);
    const proc = await startServerProcess(dataDir);
    const archive = path.join(out, 'install.bureau-backup');
    let email = '';
    let entityId = '';
    try {
      const c = await signupOn(proc.url);
      ({ email, entityId } = c);
      expect((await c.post('/api/helpdesk/tickets', { subject: 'From the CLI' })).status).toBe(201);
      expect((await c.post('/api/webhook-subscriptions', { url: 'http://127.0.0.1:9/h', events: ['*'] })).status).toBe(201);
      expect((await c.post('/api/backups/passphrase', { passphrase: PASSPHRASE })).status).toBe(200);
      // While the server runs.
      const b = npm('backup', ['--data-dir', dataDir, '--out', archive]);
      expect(b.out).toMatch(/Backup written and verified/);
      expect(b.out).toMatch(/secrets: 1 included/);
      expect(b.code).toBe(0);
      expect(npm('backup', ['--data-dir', dataDir, '--out', archive]).out).toMatch(/already exists/);
    } finally {
      await stopServerProcess(proc);
    }
    const passFile = path.join(out, 'pass.txt');
    fs.writeFileSync(passFile, `${PASSPHRASE}\n`);
    const wrongFile = path.join(out, 'wrong.txt');
    fs.writeFileSync(wrongFile, 'not the passphrase\n');

    const target = path.join(out, 'restored');
    const dry = npm('restore', ['--from', archive, '--data-dir', target, '--dry-run', '--passphrase-file', passFile]);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/Dry run: nothing written/);
    expect(dry.out).toMatch(/business "Cli business"/);
    expect(dry.out).toMatch(/helpdesk_tickets 1/);
    expect(dry.out).toMatch(/secrets: yes/);
    expect(fs.existsSync(target)).toBe(false);

    const wrong = npm('restore', ['--from', archive, '--data-dir', target, '--passphrase-file', wrongFile]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/Wrong recovery passphrase/);
    expect(listTree(target)).toEqual([]);

    const ok = npm('restore', ['--from', archive, '--data-dir', target, '--passphrase-file', passFile]);
    expect(ok.out).toMatch(/secrets: 1 restored/);
    expect(ok.code).toBe(0);
    expect(npm('restore', ['--from', archive, '--data-dir', target]).out).toMatch(/already holds/);

    const restored = await startServerProcess(target);
    try {
      const login = await makeClient(restored.url).post('/api/auth/login', { email, password: 'correct horse battery staple' });
      expect(login.status).toBe(200);
      const c = makeClient(restored.url, { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!, origin: restored.url, 'x-entity-id': entityId });
      const tickets = await c.get('/api/helpdesk/tickets');
      expect(tickets.status).toBe(200);
      expect(JSON.stringify(tickets.body)).toContain('From the CLI');
    } finally {
      await stopServerProcess(restored);
    }
  }, 180_000);
});
