import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/**
 * The install's backup settings: one row (id 1). The recovery passphrase is never stored: only
 * its scrypt parameters and the X25519 public key derived from it, which both checks a
 * passphrase and lets scheduled backups encrypt secrets without anyone typing it.
 */
export const backupSettings = sqliteTable('backup_settings', {
  id: integer('id').primaryKey(),
  /** Null: the default folder beside the data folder. */
  folder: text('folder'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  intervalHours: integer('interval_hours').notNull().default(24),
  keepDaily: integer('keep_daily').notNull().default(7),
  keepWeekly: integer('keep_weekly').notNull().default(4),
  /** JSON `{ salt, N, r, p }` (salt base64url) of the passphrase's key derivation. */
  passphraseKdf: text('passphrase_kdf'),
  passphrasePublicKey: text('passphrase_public_key'),
  passphraseSetAt: text('passphrase_set_at'),
  updatedAt: text('updated_at').notNull(),
});

/**
 * Each backup or export this install wrote (or tried to), newest last: one row per run, kept for
 * good (hourly backups: about 9,000 a year). Read newest first through `started_at`'s index, so
 * the status, the schedule's tick and the list never sort the whole history.
 */
export const backupRuns = sqliteTable(
  'backup_runs',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['scheduled', 'manual', 'export'] }).notNull(),
    /** Absolute path of the archive (its final name). */
    file: text('file').notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    size: integer('size'),
    verified: integer('verified', { mode: 'boolean' }).notNull().default(false),
    secretsIncluded: integer('secrets_included', { mode: 'boolean' }).notNull().default(false),
    error: text('error'),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt), index('backup_runs_file_idx').on(t.file)],
);
