import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import * as s from './schemas.js';
import { backupStatus } from './status.js';
import { readSettingsRow, setRecoveryPassphrase, updateBackupSettings } from './settings.js';
import { listBackups, runBackup } from './run-backup.js';

const tags = ['Backups'];
/**
 * Backups hold the whole install (every business on it) and, with the passphrase, its secrets:
 * a signed-in member with SETTINGS.MANAGE only, never an API key.
 */
const manage: EntityAccess = { entity: 'QBH', permission: 'SETTINGS.MANAGE' };

export const backupRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/backups/settings', summary: 'Backup settings and state: folder, schedule, passphrase, last and next backup', tags, access: manage, response: s.backupStatusSchema },
    ({ ctx }) => backupStatus(ctx),
  ),
  route(
    { method: 'put', path: '/api/backups/settings', summary: 'Change the backup folder or schedule', tags, access: manage, body: s.updateBackupSettingsBody, response: s.backupStatusSchema },
    ({ ctx, body }) => backupStatus(ctx, updateBackupSettings(ctx, body)),
  ),
  route(
    { method: 'get', path: '/api/backups', summary: 'The backups in the backup folder, newest first', tags, access: manage, response: z.array(s.backupItemSchema) },
    ({ ctx }) => listBackups(ctx),
  ),
  route(
    {
      method: 'post',
      path: '/api/backups',
      summary: 'Back up now',
      description: 'Writes and verifies one backup (database, files and, with a recovery passphrase, secrets) into the backup folder, then applies the retention rule (7 daily, 4 weekly).',
      tags,
      access: manage,
      response: s.backupRunSchema,
      status: 201,
      errors: { 409: 'A backup is already under way, or the folder is not writable or full (the message says which)' },
    },
    ({ ctx }) => runBackup(ctx, 'manual'),
  ),
  route(
    {
      method: 'post',
      path: '/api/backups/passphrase',
      summary: 'Set or change the recovery passphrase',
      description: 'Only a verifier is kept (scrypt parameters and the X25519 public key derived from it). Changing it needs the current one.',
      tags,
      access: manage,
      body: s.setPassphraseBody,
      response: s.passphraseStateSchema,
    },
    async ({ ctx, body }) => {
      await setRecoveryPassphrase(ctx, body);
      const row = readSettingsRow(ctx);
      return { passphraseSet: !!row.passphrasePublicKey, passphraseSetAt: row.passphraseSetAt };
    },
  ),
];
