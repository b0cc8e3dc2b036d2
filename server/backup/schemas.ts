import { z } from 'zod';

export const backupStatusSchema = z
  .object({
    folder: z.string(),
    defaultFolder: z.string(),
    enabled: z.boolean(),
    intervalHours: z.number().int(),
    keepDaily: z.number().int(),
    keepWeekly: z.number().int(),
    passphraseSet: z.boolean(),
    passphraseSetAt: z.string().nullable(),
    lastBackup: z.object({ file: z.string(), createdAt: z.string(), size: z.number(), secretsIncluded: z.boolean() }).nullable(),
    lastError: z.object({ at: z.string(), message: z.string() }).nullable(),
    nextBackupAt: z.string().nullable(),
    overdue: z.boolean().meta({ description: 'The last good backup is older than the schedule allows (interval + 1 h), or none exists and the last attempt failed.' }),
    underWay: z.boolean(),
  })
  .meta({ id: 'BackupStatus' });

export const updateBackupSettingsBody = z.object({
  folder: z.string().min(1).max(4096).nullable().optional().meta({ description: 'Absolute path; null returns to the default folder beside the data folder. A folder inside the data folder is refused.' }),
  enabled: z.boolean().optional(),
  intervalHours: z.number().int().min(1).max(24 * 7).optional(),
});

export const backupItemSchema = z
  .object({ file: z.string(), name: z.string(), size: z.number(), createdAt: z.string(), verified: z.boolean(), secretsIncluded: z.boolean() })
  .meta({ id: 'Backup' });

export const backupRunSchema = z
  .object({ id: z.string(), kind: z.enum(['scheduled', 'manual', 'export']), file: z.string(), startedAt: z.string(), finishedAt: z.string().nullable(), size: z.number().nullable(), verified: z.boolean(), secretsIncluded: z.boolean(), error: z.string().nullable() })
  .meta({ id: 'BackupRun' });

export const setPassphraseBody = z.object({
  passphrase: z.string().min(1).max(1024),
  currentPassphrase: z.string().min(1).max(1024).optional(),
});

export const passphraseStateSchema = z.object({ passphraseSet: z.boolean(), passphraseSetAt: z.string().nullable() });

export const exportQuery = z.object({ entityId: z.uuid().optional() });

export const exportResultSchema = z
  .object({
    file: z.string(),
    size: z.number(),
    entity: z.object({ id: z.string(), name: z.string() }),
    tables: z.record(z.string(), z.number()),
    files: z.object({ count: z.number(), bytes: z.number() }),
    secretsIncluded: z.boolean(),
    secretsNote: z.string().nullable(),
  })
  .meta({ id: 'BusinessExport' });

export const importBody = z.object({
  file: z.string().min(1).max(4096).meta({ description: 'Path of the `.bureau-export` archive on this machine (the desktop app picks it in a file dialog).' }),
  passphrase: z.string().min(1).max(1024).optional().meta({ description: "The exporting install's recovery passphrase: its secrets are re-sealed by this machine's key. Without it, everything else is imported and `secrets.missing` says what is not." }),
});

export const importResultSchema = z
  .object({
    entity: z.object({ id: z.string(), name: z.string() }),
    tables: z.record(z.string(), z.number()),
    files: z.number(),
    members: z.object({ added: z.number(), skipped: z.array(z.string()) }),
    secrets: z.object({ inExport: z.boolean(), restored: z.number(), missing: z.array(z.string()) }),
  })
  .meta({ id: 'BusinessImport' });
