import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import * as s from './schemas.js';
import { backupStatus } from './status.js';
import { readSettingsRow, setRecoveryPassphrase, updateBackupSettings } from './settings.js';
import { listBackups, runBackup } from './run-backup.js';
import { exportEntity } from './export-entity.js';
import { importEntity } from './import-entity.js';
import { UnauthorizedError } from '../http/errors.js';

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
  route(
    {
      method: 'post',
      path: '/api/backups/export',
      summary: 'Export one business into the backup folder',
      description: "One archive (a tar) of the entity's rows with their ids, its files and, with a recovery passphrase, its secrets; plus `readable/`: a CSV per area (helpdesk tickets and messages, ledger journal and events, signature requests, signers and audit) and the PDFs by folder, usable without Bureau.",
      tags,
      access: manage,
      query: s.exportQuery,
      response: s.exportResultSchema,
      status: 201,
      errors: { 409: 'A backup or export is already under way, or the folder is not writable or full' },
    },
    async ({ ctx, entityId }) => {
      const { file, size, manifest } = await exportEntity(ctx, entityId);
      const e = manifest.entities[0]!;
      return { file, size, entity: { id: e.id, name: e.name }, tables: manifest.tables, files: manifest.files, secretsIncluded: manifest.secrets.included, secretsNote: manifest.secrets.reason ?? null };
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/backups/import',
      summary: 'Import an exported business into this install',
      description: 'The business comes back with its ids; the signed-in user becomes one of its owners. An install that already has it refuses (409): no silent merge.',
      tags,
      access: 'session',
      body: s.importBody,
      response: s.importResultSchema,
      status: 201,
      errors: { 400: 'Not an export, damaged, tampered with, from a newer Bureau, or a wrong passphrase', 409: 'This install already has the business' },
    },
    ({ ctx, auth, body }) => {
      if (auth?.kind !== 'session') throw new UnauthorizedError();
      return importEntity(ctx, auth.userId, body);
    },
  ),
];
