import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import * as s from './schemas.js';
import { backupStatus } from './status.js';
import { readSettingsRow, setRecoveryPassphrase, updateBackupSettings } from './settings.js';
import { listBackups, runBackup } from './run-backup.js';
import { exportEntity } from './export-entity.js';
import { importEntity } from './import-entity.js';
import { UnauthorizedError } from '../http/errors.js';
import { ARCHIVE_TYPES, discardUpload, receiveArchive, uploadedArchive } from './uploads.js';
import { assertFreshInstall, restoreFreshInstall } from './restore-fresh-install.js';

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
      path: '/api/backups/import/uploads',
      summary: 'Upload an exported business to import (checked, not imported)',
      description: `The archive as the raw body (${ARCHIVE_TYPES.join(', ')}), streamed to the data folder and verified in full; the answer is the dry run of its import and the upload id that \`POST /api/backups/import\` takes (kept for an hour). At most the install's upload limit (413).`,
      tags,
      access: 'session',
      consumes: 'application/octet-stream',
      response: s.importUploadSchema,
      status: 201,
      errors: { 400: 'Not an export, truncated, damaged or tampered with, or from a newer Bureau', 409: 'This install already has the business', 413: 'Larger than the upload limit', 415: 'Not sent as the raw body' },
    },
    async ({ ctx, auth, req }) => {
      if (auth?.kind !== 'session') throw new UnauthorizedError();
      const { id, size } = await receiveArchive(ctx, req);
      try {
        return { upload: id, size, report: await importEntity(ctx, auth.userId, { file: uploadedArchive(ctx, id), dryRun: true }) };
      } catch (err) {
        discardUpload(ctx, id);
        throw err;
      }
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/backups/import',
      summary: 'Import an exported business into this install',
      description: 'From an upload (`upload`) or a path on this machine (`file`). The business comes back with its ids; the signed-in user becomes one of its owners. `dryRun` checks everything and writes nothing. An install that already has it refuses (409): no silent merge.',
      tags,
      access: 'session',
      body: s.importBody,
      response: s.importResultSchema,
      status: 201,
      errors: { 400: 'Not an export, damaged, tampered with, from a newer Bureau, or a wrong passphrase', 404: 'No such upload', 409: 'This install already has the business' },
    },
    async ({ ctx, auth, body, setStatus }) => {
      if (auth?.kind !== 'session') throw new UnauthorizedError();
      const file = body.upload ? uploadedArchive(ctx, body.upload) : body.file!;
      const report = await importEntity(ctx, auth.userId, { file, passphrase: body.passphrase, dryRun: body.dryRun });
      if (report.dryRun) setStatus(200);
      else if (body.upload) discardUpload(ctx, body.upload);
      return report;
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/setup/restore/uploads',
      summary: 'Upload a backup to restore on this fresh install (checked, not restored)',
      description: `Only while the install has no account and no business (409 after). The backup as the raw body (${ARCHIVE_TYPES.join(', ')}), streamed to the data folder and verified in full; the answer is the dry run (businesses, counts, files, whether it holds secrets) and the upload id that \`POST /api/setup/restore\` takes (kept for an hour).`,
      tags,
      access: 'public',
      consumes: 'application/octet-stream',
      response: s.restoreUploadSchema,
      status: 201,
      errors: { 400: 'Not a backup, truncated, damaged or tampered with, or from a newer Bureau', 409: 'This install is already set up', 413: 'Larger than the upload limit', 415: 'Not sent as the raw body' },
    },
    async ({ ctx, req }) => {
      assertFreshInstall(ctx);
      const { id, size } = await receiveArchive(ctx, req);
      try {
        return { upload: id, size, report: await restoreFreshInstall(ctx, { file: uploadedArchive(ctx, id), dryRun: true }) };
      } catch (err) {
        discardUpload(ctx, id);
        throw err;
      }
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/setup/restore',
      summary: 'Restore a backup on this fresh install',
      description:
        "Only while the install has no account and no business (409 after). From an upload (`upload`) or a path on this machine (`file`). Everything is verified and the passphrase checked before anything is written; the secrets are re-sealed by this install's key; a failure leaves the fresh install as it was. Then sign in with an account of the backup. `dryRun` checks everything (the passphrase too) and writes nothing.",
      tags,
      access: 'public',
      body: s.restoreBody,
      response: s.restoreReportSchema,
      errors: { 400: 'Not a backup, damaged, tampered with, from a newer Bureau, or a wrong passphrase', 404: 'No such upload', 409: 'This install is already set up' },
    },
    async ({ ctx, body }) => {
      assertFreshInstall(ctx);
      const file = body.upload ? uploadedArchive(ctx, body.upload) : body.file!;
      const report = await restoreFreshInstall(ctx, { file, passphrase: body.passphrase, dryRun: body.dryRun });
      if (!report.dryRun && body.upload) discardUpload(ctx, body.upload);
      return report;
    },
  ),
];
