import type { Context } from '../context.js';
import { backupFolder, defaultBackupFolder, readSettingsRow, type BackupSettingsRow } from './settings.js';
import { backupUnderWay, lastAttempt, lastGoodBackup, nextBackupAt } from './run-backup.js';

/** Grace past the interval before Home warns: a backup runs within a minute of being due. */
const OVERDUE_GRACE_MS = 3_600_000;

/** Settings → Backups in one answer: the settings, the passphrase state, the last and next backup. */
export function backupStatus(ctx: Context, row: BackupSettingsRow = readSettingsRow(ctx)) {
  const last = lastGoodBackup(ctx);
  const attempt = lastAttempt(ctx);
  const next = nextBackupAt(ctx);
  const now = ctx.clock.now().getTime();
  const overdue = row.enabled && (last ? now - Date.parse(last.startedAt) > row.intervalHours * 3_600_000 + OVERDUE_GRACE_MS : !!attempt?.error);
  return {
    folder: backupFolder(ctx, row),
    defaultFolder: defaultBackupFolder(ctx.config.dataDir),
    enabled: row.enabled,
    intervalHours: row.intervalHours,
    keepDaily: row.keepDaily,
    keepWeekly: row.keepWeekly,
    passphraseSet: !!row.passphrasePublicKey,
    passphraseSetAt: row.passphraseSetAt,
    lastBackup: last ? { file: last.file, createdAt: last.startedAt, size: last.size ?? 0, secretsIncluded: last.secretsIncluded } : null,
    lastError: attempt?.error ? { at: attempt.finishedAt ?? attempt.startedAt, message: attempt.error } : null,
    nextBackupAt: next?.toISOString() ?? null,
    overdue,
    underWay: backupUnderWay(ctx),
  };
}
