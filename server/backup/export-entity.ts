import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { VERSION } from '../version.js';
import { ArchiveError, writeArchive, type PartSource } from './archive.js';
import { BackupError, describeFsError } from './create-backup.js';
import { appliedMigration, columnsOf, entitySummaries, entityTables, referencedBlobs } from './inspect.js';
import { FORMAT, FORMAT_VERSION, ROWS_PART, SECRETS_PART, blobPartName, openVerifiedArchive, type Manifest } from './manifest.js';
import { readableFiles } from './readable.js';
import { exclusive } from './run-backup.js';
import { collectSecrets } from './secrets-part.js';
import { backupFolder, passphraseLock, readSettingsRow } from './settings.js';
import { backupRuns } from './tables.js';

/**
 * Rows an entity holds that stay with this install: credentials and invitations of its people
 * here, the link to a hosted instance and its push queue (a linked entity comes back through
 * sync), and queues of work in flight (outbox, mail, webhook deliveries, notifications), which
 * would otherwise run a second time on the importing install.
 */
export const INSTALL_LOCAL_TABLES = new Set(['api_keys', 'invitations', 'memberships', 'sync_changes', 'sync_links', 'outbox', 'notifications', 'webhook_deliveries', 'webhook_attempts', 'mail_outbox']);

export interface TableRows {
  columns: string[];
  rows: unknown[][];
}

export interface EntityRows {
  entity: Record<string, unknown>;
  /** The people of the entity (no password: they set one on the importing install). */
  members: { id: string; email: string; name: string; role: string; createdAt: string; memberSince: string }[];
  tables: Record<string, TableRows>;
}

/** Integers beyond 2^53 and binary values survive JSON as tagged strings. */
export function encodeValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : { $int: v.toString() };
  if (Buffer.isBuffer(v)) return { $b64: v.toString('base64') };
  return v;
}

/**
 * Derived from other rows by triggers in the same transaction (the ledger's totals and day counts,
 * the ticket, document and ledger search indexes): an import rebuilds them as it inserts the rows they come from, so
 * they are not carried (inserting them too would collide with what the triggers wrote).
 */
export const DERIVED_TABLES = new Set(['ledger_balances', 'ledger_day_totals', 'ledger_day_entries', 'helpdesk_search_docs', 'documents_search_docs', 'ledger_search_docs']);

export function exportedTables(db: Database.Database): string[] {
  return entityTables(db).filter((t) => !INSTALL_LOCAL_TABLES.has(t) && !DERIVED_TABLES.has(t));
}

/** Every exported row of the entity, read synchronously: one consistent moment. */
export function readEntityRows(db: Database.Database, entityId: string): EntityRows {
  const tables: Record<string, TableRows> = {};
  for (const t of exportedTables(db)) {
    const columns = columnsOf(db, t).map((c) => c.name);
    const rows = db.prepare(`SELECT * FROM "${t}" WHERE entity_id = ? ORDER BY rowid`).raw().safeIntegers(true).all(entityId) as unknown[][];
    if (rows.length) tables[t] = { columns, rows: rows.map((r) => r.map(encodeValue)) };
  }
  const entity = db.prepare('SELECT * FROM entities WHERE id = ?').get(entityId) as Record<string, unknown>;
  const members = db
    .prepare('SELECT u.id, u.email, u.name, m.role, u.created_at AS createdAt, m.created_at AS memberSince FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.entity_id = ? ORDER BY m.created_at, u.id')
    .all(entityId) as EntityRows['members'];
  return { entity, members, tables };
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'business';

/**
 * Export business: one archive of the entity's rows, files and (with the passphrase) secrets,
 * plus CSVs and PDFs readable without Bureau, written into the backup folder and verified.
 */
export async function exportEntity(ctx: Context, entityId: string): Promise<{ file: string; size: number; manifest: Manifest }> {
  return exclusive(ctx, async () => {
    const settings = readSettingsRow(ctx);
    const folder = backupFolder(ctx, settings);
    const now = ctx.clock.now();
    const rows = readEntityRows(ctx.sqlite, entityId);
    const name = String(rows.entity.name);
    const file = path.join(folder, `bureau-export-${slug(name)}-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.bureau-export`);
    const id = ctx.ids.next();
    ctx.db.insert(backupRuns).values({ id, kind: 'export', file, startedAt: now.toISOString() }).run();
    try {
      const parts: PartSource[] = [];
      const addData = (partName: string, data: Buffer) => parts.push({ name: partName, size: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex'), data });
      addData(ROWS_PART, Buffer.from(JSON.stringify(rows)));
      const secrets = collectSecrets(ctx.sqlite, ctx.secrets, passphraseLock(settings), { entityId, tables: new Set(Object.keys(rows.tables)) });
      if (secrets.sealed) addData(SECRETS_PART, Buffer.from(JSON.stringify(secrets.sealed)));
      let bytes = 0;
      const blobs = referencedBlobs(ctx.sqlite, entityId).filter((sha) => ctx.blobs.has(sha));
      for (const sha of blobs) {
        const size = fs.statSync(ctx.blobs.pathOf(sha)).size;
        bytes += size;
        parts.push({ name: blobPartName(sha), size, sha256: sha, file: ctx.blobs.pathOf(sha) });
      }
      for (const r of readableFiles(ctx, ctx.sqlite, entityId)) {
        if (r.data) addData(`readable/${r.name}`, r.data);
        else if (r.blob && ctx.blobs.has(r.blob)) parts.push({ name: `readable/${r.name}`, size: fs.statSync(ctx.blobs.pathOf(r.blob)).size, sha256: r.blob, file: ctx.blobs.pathOf(r.blob) });
      }
      const manifest: Manifest = {
        format: FORMAT,
        formatVersion: FORMAT_VERSION,
        kind: 'entity',
        appVersion: VERSION,
        createdAt: now.toISOString(),
        migration: appliedMigration(ctx.sqlite),
        entities: entitySummaries(ctx.sqlite, entityId).map((e) => ({ ...e, counts: Object.fromEntries(Object.entries(rows.tables).map(([t, v]) => [t, v.rows.length])) })),
        tables: Object.fromEntries(Object.entries(rows.tables).map(([t, v]) => [t, v.rows.length])),
        files: { count: blobs.length, bytes },
        secrets: { included: secrets.sealed !== null, count: secrets.count, columns: secrets.columns, ...(secrets.reason ? { reason: secrets.reason } : {}) },
        parts: parts.map(({ name: n, size, sha256 }) => ({ name: n, size, sha256 })),
      };
      let size: number;
      try {
        fs.mkdirSync(folder, { recursive: true });
        size = await writeArchive(file, manifest, parts);
      } catch (err) {
        throw describeFsError(err, folder);
      }
      // An export has no database file to check: every part's hash is, on re-reading.
      try {
        await openVerifiedArchive(file);
      } catch (err) {
        fs.rmSync(file, { force: true });
        throw describeFsError(err, folder);
      }
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), size, verified: true, secretsIncluded: secrets.sealed !== null }).where(eq(backupRuns.id, id)).run();
      return { file, size, manifest };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), error: message }).where(eq(backupRuns.id, id)).run();
      if (err instanceof BackupError || err instanceof ArchiveError) throw new ConflictError(`Export failed: ${message}`);
      throw err;
    }
  });
}
