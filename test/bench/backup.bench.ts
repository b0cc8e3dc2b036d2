// Backup benchmark: backup and restore time and size for a generated install (ledger events
// posted through the engine, tickets through their use case, files as stored documents), then
// an Export business of the same entity, imported on a fresh install. Prints figures only.
//   BACKUP_BENCH_EVENTS (default 100000), BACKUP_BENCH_TICKETS (20000), BACKUP_BENCH_FILES_MB (256)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
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
const FILES_MB = Number(process.env.BACKUP_BENCH_FILES_MB ?? 256);
const FILE_MB = 4;

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
    const files = Math.ceil(FILES_MB / FILE_MB);
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
