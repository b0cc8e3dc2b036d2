import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Context } from '../context.js';
import { BadRequestError, ConflictError } from '../http/errors.js';
import { entityLinks } from '../kernel/entity-links.js';
import { ArchiveError, fsyncDir } from './archive.js';
import { columnsOf, userTables } from './inspect.js';
import { openArchiveForRestore, RestoreError, restoreReport, stageRestore, type RestoreReport } from './restore-backup.js';
import { exclusive } from './run-backup.js';
import { quoteIdent as quote } from '../db/quote.js';

/** An install with no account and no business yet: the only one a backup may be restored into. */
export function isFreshInstall(db: Database.Database): boolean {
  return !db.prepare('SELECT 1 FROM users LIMIT 1').get() && !db.prepare('SELECT 1 FROM entities LIMIT 1').get();
}

export function assertFreshInstall(ctx: Context): void {
  if (!isFreshInstall(ctx.sqlite)) throw new ConflictError('This install is already set up (it has an account or a business): a backup is restored only on a fresh install');
}

/**
 * Restore from a backup, on the set-up screen of the running app. The archive is verified in full
 * and the passphrase checked before anything is written; the database and files are assembled in
 * a staging folder (secrets re-sealed by this install's own key, `ctx.secrets`: the keychain's on
 * the desktop); then the running server's database takes the restored rows in ONE transaction on
 * its open connection. A failure at any step rolls back to the fresh install as it was (the
 * files copied in are removed again), and nothing has to be closed or reopened.
 */
export async function restoreFreshInstall(ctx: Context, input: { file: string; passphrase?: string | null; dryRun?: boolean }): Promise<RestoreReport> {
  assertFreshInstall(ctx);
  return exclusive(ctx, async () => {
    let opened: Awaited<ReturnType<typeof openArchiveForRestore>>;
    try {
      opened = await openArchiveForRestore(input.file, input.passphrase);
    } catch (err) {
      if (err instanceof ArchiveError || err instanceof RestoreError) throw new BadRequestError(err.message);
      throw err;
    }
    const { manifest, sealed, privateKey } = opened;
    if (manifest.kind !== 'install') throw new BadRequestError('This archive is an export of one business: set up this install, then import it from Settings → Backups');
    const report = { passphraseChecked: !!privateKey, secretsInArchive: !!sealed };
    if (input.dryRun) return restoreReport(manifest, { dryRun: true, restoredSecrets: 0, ...report });

    const staging = path.join(ctx.config.dataDir, `.restore-${crypto.randomBytes(4).toString('hex')}`);
    const added: string[] = [];
    try {
      let staged: Awaited<ReturnType<typeof stageRestore>>;
      try {
        staged = await stageRestore(opened, input.file, staging, () => ctx.secrets);
      } catch (err) {
        if (err instanceof ArchiveError || err instanceof RestoreError) throw new BadRequestError(err.message);
        throw err;
      }
      // Files first (content-addressed: a file already here is the same file); removed again on failure.
      for (const sha of staged.blobs) {
        const target = ctx.blobs.pathOf(sha);
        if (fs.existsSync(target)) continue;
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(staged.blobPath(sha), target);
        added.push(target);
      }
      replaceRows(ctx.sqlite, staged.db);
      added.length = 0; // committed: the files are the restored install's now
      entityLinks().reload(ctx);
      fsyncDir(ctx.config.dataDir);
      ctx.log.info({ entities: manifest.entities.length, files: staged.blobs.length, secrets: staged.restoredSecrets }, 'install restored from a backup');
      return restoreReport(manifest, { dryRun: false, restoredSecrets: staged.restoredSecrets, ...report });
    } finally {
      for (const file of added) fs.rmSync(file, { force: true });
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });
}

/**
 * Replaces every row of the live database by the staged one's, in one transaction. Both have this
 * version's schema (the staged one was migrated); the live triggers are set aside for the copy
 * (the rows are copied as they were, full-text index included, not re-derived or captured for
 * sync) and put back before the commit. This install keeps its own sync clock id: the running
 * engine stamps with it, and two installs restored from one backup must not share one.
 */
function replaceRows(live: Database.Database, stagedFile: string): void {
  live.prepare('ATTACH DATABASE ? AS restored').run(stagedFile);
  try {
    // A virtual table's (full-text index's) shadow tables are SQLite's to write: its rows are
    // copied through the virtual table itself, which writes them.
    const listed = live.prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main'").all() as { name: string; type: string }[];
    const virtual = listed.filter((t) => t.type === 'virtual').map((t) => t.name);
    const skip = new Set(listed.filter((t) => t.type === 'virtual' || t.type === 'shadow').map((t) => t.name));
    const tables = userTables(live).filter((t) => !skip.has(t));
    const restoredTables = new Set((live.prepare("SELECT name FROM restored.sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    const columns = new Map<string, string[]>();
    for (const t of tables) {
      const mine = columnsOf(live, t).map((c) => c.name);
      const theirs = restoredTables.has(t) ? (live.prepare('SELECT name FROM pragma_table_info(?, ?)').all(t, 'restored') as { name: string }[]).map((c) => c.name) : [];
      if (mine.join('\0') !== theirs.join('\0')) throw new BadRequestError(`The restored database does not have this version's table ${t}: nothing was restored`);
      columns.set(t, mine);
    }
    const triggers = live.prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
    const node = live.prepare("SELECT node FROM main.sync_node WHERE id = 1").get() as { node: string } | undefined;
    const hasSequence = !!live.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get();
    const restoredSequence = !!live.prepare("SELECT 1 FROM restored.sqlite_master WHERE name = 'sqlite_sequence'").get();
    live.transaction(() => {
      // Checked again inside the transaction: a sign-up may have landed while the files were staged.
      if (!isFreshInstall(live)) throw new ConflictError('This install was set up meanwhile: nothing was restored');
      live.pragma('defer_foreign_keys = ON');
      for (const t of triggers) live.exec(`DROP TRIGGER main.${quote(t.name)}`);
      for (const t of [...tables, ...virtual]) live.exec(`DELETE FROM main.${quote(t)}`);
      if (hasSequence) live.exec('DELETE FROM main.sqlite_sequence');
      for (const t of tables) {
        const cols = columns.get(t)!.map(quote).join(', ');
        live.exec(`INSERT INTO main.${quote(t)} (${cols}) SELECT ${cols} FROM restored.${quote(t)}`);
      }
      for (const v of virtual) {
        const cols = ['rowid', ...columnsOf(live, v).map((c) => quote(c.name))].join(', ');
        live.exec(`INSERT INTO main.${quote(v)} (${cols}) SELECT ${cols} FROM restored.${quote(v)}`);
      }
      if (hasSequence && restoredSequence) live.exec('INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM restored.sqlite_sequence');
      if (node) live.prepare('INSERT INTO main.sync_node (id, node) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET node = excluded.node').run(node.node);
      for (const t of triggers) live.exec(t.sql);
      const problems = live.prepare('PRAGMA main.foreign_key_check').all();
      if (problems.length) throw new BadRequestError(`The restored database has ${problems.length} broken reference(s): nothing was restored`);
    })();
  } finally {
    live.exec('DETACH DATABASE restored');
  }
}
