import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createBlobStore } from '../blobs/store.js';
import { createFileSecretBox } from '../secrets.js';
import { writeBackup } from './create-backup.js';
import { restoreBackup } from './restore-backup.js';
import { kdfSchema } from './passphrase.js';
import type { PassphraseLock } from './secrets-part.js';

/**
 * `npm run backup -- --data-dir D --out F` and
 * `npm run restore -- --from F --data-dir D [--dry-run] [--passphrase-file P]`.
 * A backup may run while the app uses the data folder; a restore needs the app stopped.
 */

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(1);
}

function lockOf(db: Database.Database): PassphraseLock | null {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup_settings'").get();
  if (!hasTable) return null;
  const row = db.prepare('SELECT passphrase_kdf AS kdf, passphrase_public_key AS publicKey FROM backup_settings WHERE id = 1').get() as { kdf: string | null; publicKey: string | null } | undefined;
  return row?.kdf && row.publicKey ? { kdf: kdfSchema.parse(JSON.parse(row.kdf)), publicKey: row.publicKey } : null;
}

async function backupCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'data-dir': { type: 'string' }, out: { type: 'string' } } });
  const dataDir = values['data-dir'] ?? process.env.BUREAU_DATA_DIR ?? fail('--data-dir is required');
  const out = path.resolve(values.out ?? fail('--out is required (the archive file to write)'));
  const dbFile = path.join(dataDir, 'bureau.db');
  if (!fs.existsSync(dbFile)) fail(`No Bureau database in ${dataDir}`);
  if (fs.existsSync(out)) fail(`${out} already exists: choose a new file name`);
  const sqlite = new Database(dbFile, { fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  try {
    // The headless key file opens the secrets; the desktop's keychain-sealed key cannot be opened here.
    const secrets = fs.existsSync(path.join(dataDir, 'secret.key')) ? createFileSecretBox(dataDir) : null;
    const result = await writeBackup({ sqlite, blobs: createBlobStore(path.join(dataDir, 'blobs')), secrets, sharedConnection: false }, { file: out, lock: lockOf(sqlite), now: new Date() });
    const m = result.manifest;
    console.log(`Backup written and verified: ${result.file} (${result.size} bytes)`);
    console.log(`  businesses: ${m.entities.map((e) => e.name).join(', ') || 'none'}`);
    console.log(`  files: ${m.files.count} (${m.files.bytes} bytes)`);
    console.log(`  secrets: ${m.secrets.included ? `${m.secrets.count} included (encrypted with the recovery passphrase)` : `not included — ${m.secrets.reason}`}`);
  } finally {
    sqlite.close();
  }
}

async function restoreCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { from: { type: 'string' }, 'data-dir': { type: 'string' }, 'dry-run': { type: 'boolean' }, 'passphrase-file': { type: 'string' }, json: { type: 'boolean' } } });
  const from = values.from ?? fail('--from is required (the backup file)');
  const dataDir = values['data-dir'] ?? process.env.BUREAU_DATA_DIR ?? fail('--data-dir is required');
  let passphrase: string | null = null;
  if (values['passphrase-file']) {
    try {
      passphrase = fs.readFileSync(values['passphrase-file'], 'utf8').replace(/\r?\n$/, '');
    } catch {
      fail(`Cannot read the passphrase file ${values['passphrase-file']}`);
    }
  }
  const report = await restoreBackup({ from, dataDir, passphrase, dryRun: values['dry-run'] });
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(report.dryRun ? `Dry run: nothing written. Restoring ${from} into ${dataDir} would bring back:` : `Restored ${from} into ${dataDir}:`);
  console.log(`  backup of ${report.createdAt} (Bureau ${report.appVersion})`);
  for (const e of report.entities) console.log(`  business "${e.name}" (${e.id}): ${Object.entries(e.counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log(`  files: ${report.files.count} (${report.files.bytes} bytes)`);
  const sec = report.secrets;
  console.log(`  secrets: ${sec.inBackup ? (sec.missing.length ? 'in the backup, not restored' : report.dryRun ? 'yes (passphrase checked)' : `${sec.restored} restored`) : 'no'}`);
  if (sec.missing.length) console.log(`  missing secrets: ${sec.missing.join(', ')}`);
  if (sec.note) console.log(`  note: ${sec.note}`);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'backup') await backupCommand(rest);
  else if (command === 'restore') await restoreCommand(rest);
  else fail('usage: cli.ts backup|restore …');
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
