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

const archiveSource = {
  upload: z.string().regex(/^[0-9a-f]{32}$/).optional().meta({ description: 'The id an upload of the archive answered (kept for an hour).' }),
  file: z.string().min(1).max(4096).optional().meta({ description: 'Or: the path of the archive on this machine (the server is local).' }),
};
const oneSource = (v: { upload?: string; file?: string }) => !!v.upload !== !!v.file;
const oneSourceMessage = { message: 'Give either upload (an uploaded archive) or file (a path on this machine)' };

export const importBody = z
  .object({
    ...archiveSource,
    passphrase: z.string().min(1).max(1024).optional().meta({ description: "The exporting install's recovery passphrase: its secrets are re-sealed by this machine's key. Without it, everything else is imported and `secrets.missing` says what is not." }),
    dryRun: z.boolean().optional().meta({ description: 'Check everything (the passphrase too) and say what would be imported; write nothing.' }),
  })
  .refine(oneSource, oneSourceMessage);

export const restoreBody = z
  .object({
    ...archiveSource,
    passphrase: z.string().min(1).max(1024).optional().meta({ description: 'The recovery passphrase of the backed-up install: its secrets are re-sealed by this install\'s key. Without it, everything but the secrets is restored.' }),
    dryRun: z.boolean().optional(),
  })
  .refine(oneSource, oneSourceMessage);

export const restoreReportSchema = z
  .object({
    dryRun: z.boolean(),
    createdAt: z.string(),
    appVersion: z.string(),
    entities: z.array(z.object({ id: z.string(), name: z.string(), counts: z.record(z.string(), z.number()) })),
    tables: z.record(z.string(), z.number()),
    files: z.object({ count: z.number(), bytes: z.number() }),
    secrets: z.object({ inBackup: z.boolean(), restored: z.number(), missing: z.array(z.string()), note: z.string().optional() }),
  })
  .meta({ id: 'RestoreReport' });

export const restoreUploadSchema = z.object({ upload: z.string(), size: z.number(), report: restoreReportSchema }).meta({ id: 'RestoreUpload' });

export const importResultSchema = z
  .object({
    dryRun: z.boolean(),
    entity: z.object({ id: z.string(), name: z.string() }),
    tables: z.record(z.string(), z.number()),
    files: z.number(),
    members: z.object({ added: z.number(), skipped: z.array(z.string()) }),
    secrets: z.object({ inExport: z.boolean(), restored: z.number(), missing: z.array(z.string()) }),
  })
  .meta({ id: 'BusinessImport' });

export const importUploadSchema = z.object({ upload: z.string(), size: z.number(), report: importResultSchema }).meta({ id: 'ImportUpload' });
