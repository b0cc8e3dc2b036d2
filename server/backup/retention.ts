import fs from 'node:fs';
import path from 'node:path';

/** Scheduled and manual backups are named by their UTC time; nothing else in the folder is touched. */
export const BACKUP_NAME = /^bureau-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(\d{3})\.bureau-backup$/;

export function backupFileName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-26T20:35:27.123Z
  return `bureau-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}${iso.slice(20, 23)}.bureau-backup`;
}

export function timeOfBackupName(name: string): Date | null {
  const m = BACKUP_NAME.exec(name);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!)) : null;
}

/** Monday-based week number since the epoch (1970-01-01 was a Thursday). */
const weekOf = (d: Date) => Math.floor((Math.floor(d.getTime() / 86_400_000) + 3) / 7);
const dayOf = (d: Date) => Math.floor(d.getTime() / 86_400_000);

/**
 * Which backups to keep: the newest of each of the `keepDaily` most recent days that have one,
 * and the newest of each of the `keepWeekly` most recent weeks. Returns the names to delete.
 */
export function backupsToPrune(names: string[], keepDaily: number, keepWeekly: number): string[] {
  const dated = names
    .map((name) => ({ name, at: timeOfBackupName(name) }))
    .filter((b): b is { name: string; at: Date } => b.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const keep = new Set<string>();
  const pick = (bucket: (d: Date) => number, count: number) => {
    const seen = new Set<number>();
    for (const b of dated) {
      const k = bucket(b.at);
      if (seen.has(k)) continue;
      if (seen.size >= count) break;
      seen.add(k);
      keep.add(b.name);
    }
  };
  pick(dayOf, keepDaily);
  pick(weekOf, keepWeekly);
  return dated.filter((b) => !keep.has(b.name)).map((b) => b.name);
}

/** Removes the backups the schedule no longer keeps (asynchronously: each is as large as the database). */
export async function pruneBackups(folder: string, keepDaily: number, keepWeekly: number): Promise<string[]> {
  if (!fs.existsSync(folder)) return [];
  const doomed = backupsToPrune(fs.readdirSync(folder), keepDaily, keepWeekly);
  for (const name of doomed) await fs.promises.rm(path.join(folder, name), { force: true });
  return doomed;
}
