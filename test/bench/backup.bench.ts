// Backup benchmark: backup and restore time and size for a generated install (ledger events
// posted through the engine, tickets through their use case, files as stored documents): the
// restore command, and Restore from a backup on a fresh running install (upload + restore), then
// an Export business of the same entity, imported on a fresh install. Prints figures only.
//   BACKUP_BENCH_EVENTS (default 100000), BACKUP_BENCH_TICKETS (20000),
//   files: `npm run bench backup -- --files=1GB` or BACKUP_BENCH_FILES=1GB (default 256MB; B, KB,
//   MB or GB; BACKUP_BENCH_FILES_MB=1024 still works). 1 GB of files needs about 6 GB free in the
//   temp folder (data, backup, the restores, the export and its import, each a copy).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { startTestServer } from '../helpers/server.js';
import { createEntity } from '../../server/auth/entities.js';
import { postPrepared, prepareEvent } from '../../server/ledger/post-event.js';
import { inLedgerTx } from '../../server/ledger/setup.js';
import { createTicket } from '../../server/helpdesk/tickets.js';
import { createTicketBody } from '../../server/helpdesk/schemas.js';
import { runBackup } from '../../server/backup/run-backup.js';
import { restoreBackup } from '../../server/backup/restore-backup.js';
import { exportEntity } from '../../server/backup/export-entity.js';
import { importEntity } from '../../server/backup/import-entity.js';
import { setRecoveryPassphrase } from '../../server/backup/settings.js';
import { tempDir } from '../integration/backup-helpers.js';

const EVENTS = Number(process.env.BACKUP_BENCH_EVENTS ?? 100_000);
const TICKETS = Number(process.env.BACKUP_BENCH_TICKETS ?? 20_000);
const FILE_MB = 4;

/** `1GB`, `256MB`, `512` (MB) → bytes. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$/i.exec(text.trim());
  if (!m) throw new Error(`Not a size: ${text} (write e.g. 1GB or 256MB)`);
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[(m[2] ?? 'MB').toUpperCase() as 'B' | 'KB' | 'MB' | 'GB'];
  return Math.round(Number(m[1]) * unit);
}

function filesBytes(): number {
  const arg = process.argv.find((a) => a.startsWith('--files='))?.slice('--files='.length);
  if (arg) return parseSize(arg);
  if (process.env.BACKUP_BENCH_FILES) return parseSize(process.env.BACKUP_BENCH_FILES);
  return Number(process.env.BACKUP_BENCH_FILES_MB ?? 256) * 1024 ** 2;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export default async function backupBench(): Promise<void> {
  const server = await startTestServer();
  const backups = `${path.resolve(server.dataDir)}-backups`;
  const target = tempDir();
  try {
    const owner = await server.signup();
    const { ctx } = server;
    const entityId = createEntity(ctx, owner.user.id, 'Bench business').id;
    let t = performance.now();
    // A thousand events per transaction: each commit is fsynced (durably), which one at a time would dominate.
    for (let start = 0; start < EVENTS; start += 1000) {
      inLedgerTx(ctx, entityId, (db) => {
        for (let i = start; i < Math.min(EVENTS, start + 1000); i++) {
          const raw = { type: 'invoice_created', payload: { invoiceNumber: `INV-${i}`, currency: 'USD', netAmount: `${100 + (i % 900)}.00`, taxAmount: `${(i % 50) + 1}.25` }, idempotencyKey: `bench-${i}` };
          postPrepared(ctx, db, entityId, prepareEvent(raw), {});
        }
      });
    }
    const actor = { type: 'user' as const, id: owner.user.id, name: owner.user.name };
    ctx.sqlite.transaction(() => {
      for (let i = 0; i < TICKETS; i++) createTicket(ctx, entityId, actor, createTicketBody.parse({ subject: `Ticket ${i}: the printer on floor ${i % 12} is jammed`, description: 'It was working yesterday. '.repeat(8) }));
    })();
    const insertDoc = ctx.sqlite.prepare("INSERT INTO documents (id, entity_id, name, sha256, size, page_count, pages, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, '[]', ?, ?)");
    const files = Math.ceil(filesBytes() / (FILE_MB << 20));
    for (let i = 0; i < files; i++) {
      const blob = ctx.blobs.put(crypto.randomBytes(FILE_MB << 20));
      const now = new Date().toISOString();
      insertDoc.run(ctx.ids.next(), entityId, `file-${i}.pdf`, blob.sha256, blob.size, now, now);
    }
    await setRecoveryPassphrase(ctx, { passphrase: 'a long bench passphrase' });
    const dbSize = fs.statSync(path.join(server.dataDir, 'bureau.db')).size;
    console.log(`dataset: ${EVENTS} ledger events, ${TICKETS} tickets, ${files} files of ${FILE_MB} MB (${mb(files * (FILE_MB << 20))}); database ${mb(dbSize)} (generated in ${secs(performance.now() - t)})`);

    t = performance.now();
    const run = await runBackup(ctx, 'manual');
    const backupMs = performance.now() - t;
    console.log(`backup (copy, archive, fsync, re-read and check): ${secs(backupMs)}, archive ${mb(run.size ?? 0)}`);

    t = performance.now();
    const dry = await restoreBackup({ from: run.file, dataDir: target, dryRun: true });
    console.log(`restore dry run (every hash checked): ${secs(performance.now() - t)}, ${dry.entities.length} entities`);
    t = performance.now();
    const report = await restoreBackup({ from: run.file, dataDir: target, passphrase: 'a long bench passphrase' });
    console.log(`restore (with passphrase, ${report.secrets.restored} secrets re-sealed): ${secs(performance.now() - t)}`);
    fs.rmSync(target, { recursive: true, force: true });

    // Restore from a backup on the set-up screen of a running fresh install: the upload (streamed
    // over HTTP to its data folder, then checked), then the restore into the open database.
    const fresh = await startTestServer();
    try {
      t = performance.now();
      const body = Readable.toWeb(fs.createReadStream(run.file)) as ReadableStream;
      const up = await fetch(`${fresh.url}/api/setup/restore/uploads`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' }, duplex: 'half' } as RequestInit);
      const uploaded = (await up.json()) as { upload: string };
      if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(uploaded)}`);
      console.log(`in-app restore, upload and dry run: ${secs(performance.now() - t)}`);
      t = performance.now();
      const restored = await fresh.anon.post('/api/setup/restore', { upload: uploaded.upload, passphrase: 'a long bench passphrase' });
      if (restored.status !== 200) throw new Error(`restore failed: ${restored.status} ${JSON.stringify(restored.body)}`);
      console.log(`in-app restore into the running install (${restored.body.secrets.restored} secrets re-sealed): ${secs(performance.now() - t)}`);
    } finally {
      await fresh.close();
      fs.rmSync(`${path.resolve(fresh.dataDir)}-backups`, { recursive: true, force: true });
    }

    t = performance.now();
    const exported = await exportEntity(ctx, entityId);
    console.log(`export business (rows JSON, CSVs, files): ${secs(performance.now() - t)}, archive ${mb(exported.size)}`);

    const other = await startTestServer();
    try {
      const importer = await other.signup();
      t = performance.now();
      const imported = await importEntity(other.ctx, importer.user.id, { file: exported.file, passphrase: 'a long bench passphrase' });
      console.log(`import business on a fresh install (${Object.values(imported.tables).reduce((a, b) => a + b, 0)} rows, ${imported.files} files): ${secs(performance.now() - t)}`);
    } finally {
      await other.close();
      fs.rmSync(`${path.resolve(other.dataDir)}-backups`, { recursive: true, force: true });
    }
  } finally {
    await server.close();
    fs.rmSync(backups, { recursive: true, force: true });
    fs.rmSync(target, { recursive: true, force: true });
  }
}
