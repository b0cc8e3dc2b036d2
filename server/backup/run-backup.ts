import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { ArchiveError } from './archive.js';
import { BackupError, writeBackup } from './create-backup.js';
import { backupFileName, pruneBackups, timeOfBackupName, BACKUP_NAME } from './retention.js';
import { backupFolder, passphraseLock, readSettingsRow } from './settings.js';
import { backupRuns } from './tables.js';

/** One backup at a time per install: a second request while one runs is refused. */
const running = new WeakMap<Context, Promise<unknown>>();

export function backupUnderWay(ctx: Context): boolean {
  return running.has(ctx);
}

export async function exclusive<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  if (running.has(ctx)) throw new ConflictError('A backup or export is already under way');
  const p = work();
  running.set(ctx, p);
  try {
    return await p;
  } finally {
    running.delete(ctx);
  }
}

export type BackupRun = typeof backupRuns.$inferSelect;

/**
 * Backs the install up now into the configured folder, records the attempt (and its failure),
 * and prunes old backups by the retention rule once the new one is verified.
 */
export async function runBackup(ctx: Context, kind: 'scheduled' | 'manual', hooks: { onCopied?: () => void } = {}): Promise<BackupRun> {
  return exclusive(ctx, async () => {
    const settings = readSettingsRow(ctx);
    const folder = backupFolder(ctx, settings);
    const now = ctx.clock.now();
    const id = ctx.ids.next();
    const file = path.join(folder, backupFileName(now));
    ctx.db.insert(backupRuns).values({ id, kind, file, startedAt: now.toISOString() }).run();
    try {
      const result = await writeBackup({ sqlite: ctx.sqlite, blobs: ctx.blobs, secrets: ctx.secrets, sharedConnection: true }, { file, lock: passphraseLock(settings), now, onCopied: hooks.onCopied });
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), size: result.size, verified: true, secretsIncluded: result.manifest.secrets.included }).where(eq(backupRuns.id, id)).run();
      await pruneBackups(folder, settings.keepDaily, settings.keepWeekly);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), error: message }).where(eq(backupRuns.id, id)).run();
      ctx.log.error({ err, file }, 'backup failed');
      if (err instanceof BackupError || err instanceof ArchiveError) throw new ConflictError(`Backup failed: ${message}`);
      throw err;
    }
    return ctx.db.select().from(backupRuns).where(eq(backupRuns.id, id)).get()!;
  });
}

export interface BackupListItem {
  file: string;
  name: string;
  size: number;
  createdAt: string;
  verified: boolean;
  secretsIncluded: boolean;
}

/** The backups now in the folder (newest first), with what this install recorded of each. */
export function listBackups(ctx: Context): BackupListItem[] {
  const folder = backupFolder(ctx);
  if (!fs.existsSync(folder)) return [];
  const names = fs.readdirSync(folder).filter((n) => BACKUP_NAME.test(n));
  // The runs of the files still there (retention keeps a few), not the whole history of runs.
  const files = names.map((name) => path.join(folder, name));
  const runs = new Map(
    (files.length ? ctx.db.select().from(backupRuns).where(and(ne(backupRuns.kind, 'export'), inArray(backupRuns.file, files))).all() : []).map((r) => [r.file, r]),
  );
  return names
    .map((name) => {
      const file = path.join(folder, name);
      const run = runs.get(file);
      return { file, name, size: fs.statSync(file).size, createdAt: timeOfBackupName(name)!.toISOString(), verified: run?.verified ?? false, secretsIncluded: run?.secretsIncluded ?? false };
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The newest verified backup whose file is still there. */
export function lastGoodBackup(ctx: Context): BackupRun | null {
  const rows = ctx.db
    .select()
    .from(backupRuns)
    .where(and(eq(backupRuns.verified, true), ne(backupRuns.kind, 'export')))
    .orderBy(desc(backupRuns.startedAt))
    .limit(20)
    .all();
  return rows.find((r) => fs.existsSync(r.file)) ?? null;
}

export function lastAttempt(ctx: Context): BackupRun | null {
  return ctx.db.select().from(backupRuns).where(ne(backupRuns.kind, 'export')).orderBy(desc(backupRuns.startedAt)).limit(1).get() ?? null;
}

/** A failed attempt is retried after an hour, not on every tick. */
const RETRY_AFTER_FAILURE_MS = 3_600_000;

export function nextBackupAt(ctx: Context): Date | null {
  const settings = readSettingsRow(ctx);
  if (!settings.enabled) return null;
  const last = lastGoodBackup(ctx);
  const due = last ? new Date(Date.parse(last.startedAt) + settings.intervalHours * 3_600_000) : ctx.clock.now();
  const attempt = lastAttempt(ctx);
  if (attempt?.error && attempt.finishedAt) {
    const retry = new Date(Date.parse(attempt.finishedAt) + RETRY_AFTER_FAILURE_MS);
    if (retry > due) return retry;
  }
  return due;
}

/** The schedule's tick: a backup when one is due. */
export async function runScheduledBackup(ctx: Context): Promise<void> {
  const next = nextBackupAt(ctx);
  if (!next || next > ctx.clock.now() || backupUnderWay(ctx)) return;
  await runBackup(ctx, 'scheduled');
}
