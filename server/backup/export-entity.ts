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
import { BackupError, TEMP_MARK, describeFsError, removeStaleTemps } from './create-backup.js';
import { PartFile, openExportSnapshot, readSteps, writePartFile, type ExportSnapshot } from './export-snapshot.js';
import { heldBlobs } from './held-blobs.js';
import { appliedMigration, blobSteps, blobsOf, columnsOf, entityTables, sealedOf, sealedSteps, tableInfos } from './inspect.js';
import { FORMAT, FORMAT_VERSION, ROWS_PART, SECRETS_PART, blobPartName, openVerifiedArchive, type Manifest } from './manifest.js';
import { readableFiles } from './readable.js';
import { exclusive } from './run-backup.js';
import { sealSecrets } from './secrets-part.js';
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

/** The people of the entity (no password: they set one on the importing install). */
export interface ExportedMember {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: string;
  memberSince: string;
}

/** The rows part of an export, as an import reads it. */
export interface EntityRows {
  entity: Record<string, unknown>;
  members: ExportedMember[];
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
export const DERIVED_TABLES = new Set(['ledger_balances', 'ledger_day_totals', 'ledger_day_entries', 'helpdesk_search_docs', 'helpdesk_trigram_entities', 'documents_search_docs', 'ledger_search_docs']);

export function exportedTables(db: Database.Database): string[] {
  return entityTables(db).filter((t) => !INSTALL_LOCAL_TABLES.has(t) && !DERIVED_TABLES.has(t));
}

/**
 * The rows part: `{ entity, members, tables: { <table>: { columns, rows } } }` as JSON (tables
 * without rows left out), written a row at a time from the export's snapshot. Returns the
 * entity's row and each table's count.
 */
async function writeEntityRows(snap: ExportSnapshot, entityId: string, out: PartFile): Promise<{ entity: Record<string, unknown>; counts: Record<string, number> }> {
  const db = snap.db;
  const entity = db.prepare('SELECT * FROM entities WHERE id = ?').get(entityId) as Record<string, unknown>;
  const members = db
    .prepare('SELECT u.id, u.email, u.name, m.role, u.created_at AS createdAt, m.created_at AS memberSince FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.entity_id = ? ORDER BY m.created_at, u.id')
    .all(entityId) as ExportedMember[];
  await out.write(`{"entity":${JSON.stringify(entity)},"members":${JSON.stringify(members)},"tables":{`);
  const counts: Record<string, number> = {};
  for (const t of exportedTables(db)) {
    const columns = columnsOf(db, t).map((c) => c.name);
    // NOT INDEXED: read in rowid order as stored, so rows stream out. Through the entity_id index,
    // SQLite sorted the whole table by rowid before its first row (a long stall for the journal's lines).
    const st = db.prepare(`SELECT * FROM "${t}" NOT INDEXED WHERE entity_id = ? ORDER BY rowid`).raw().safeIntegers(true);
    let n = 0;
    for (const r of snap.rows(st, [entityId])) {
      const head = n === 0 ? `${Object.keys(counts).length ? ',' : ''}${JSON.stringify(t)}:{"columns":${JSON.stringify(columns)},"rows":[` : ',';
      await out.write(head + JSON.stringify(r.map(encodeValue)));
      n++;
      await snap.pace();
    }
    if (n) {
      await out.write(']}');
      counts[t] = n;
    }
  }
  await out.write('}}');
  return { entity, counts };
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
    const name = String((ctx.sqlite.prepare('SELECT name FROM entities WHERE id = ?').get(entityId) as { name: string }).name);
    const file = path.join(folder, `bureau-export-${slug(name)}-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.bureau-export`);
    const id = ctx.ids.next();
    ctx.db.insert(backupRuns).values({ id, kind: 'export', file, startedAt: now.toISOString() }).run();
    let scratch: string | null = null;
    try {
      try {
        fs.mkdirSync(folder, { recursive: true });
        await removeStaleTemps(folder);
        scratch = fs.mkdtempSync(path.join(folder, `${TEMP_MARK}${process.pid}-export-`));
      } catch (err) {
        throw describeFsError(err, folder);
      }
      const { manifest, parts } = await readEntityParts(ctx, entityId, scratch, now);
      let size: number;
      try {
        size = await writeArchive(file, manifest, parts);
      } catch (err) {
        throw describeFsError(err, folder);
      }
      // An export has no database file to check: every part's hash is, on re-reading.
      try {
        await openVerifiedArchive(file);
      } catch (err) {
        await fs.promises.rm(file, { force: true });
        throw describeFsError(err, folder);
      }
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), size, verified: true, secretsIncluded: manifest.secrets.included }).where(eq(backupRuns.id, id)).run();
      return { file, size, manifest };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.db.update(backupRuns).set({ finishedAt: nowIso(ctx), error: message }).where(eq(backupRuns.id, id)).run();
      if (err instanceof BackupError || err instanceof ArchiveError) throw new ConflictError(`Export failed: ${message}`);
      throw err;
    } finally {
      if (scratch) await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  });
}

/**
 * Reads the entity at one moment (the export's snapshot) into the archive's parts: the rows and
 * CSVs written as files in `scratch`, a slice at a time, so the server answers other requests
 * meanwhile; the secrets; the files it references. Returns them with their manifest.
 */
async function readEntityParts(ctx: Context, entityId: string, scratch: string, now: Date): Promise<{ manifest: Manifest; parts: PartSource[] }> {
  const settings = readSettingsRow(ctx);
  const folder = backupFolder(ctx, settings);
  const snap = openExportSnapshot(ctx.sqlite);
  try {
    const parts: PartSource[] = [];
    const addData = (partName: string, data: Buffer) => parts.push({ name: partName, size: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex'), data });
    let rows: Awaited<ReturnType<typeof writeEntityRows>> | undefined;
    const rowsPart = await writePartFile(path.join(scratch, 'rows.json'), async (out) => {
      rows = await writeEntityRows(snap, entityId, out);
    }).catch((err: unknown) => {
      throw describeFsError(err, folder);
    });
    const { entity, counts } = rows!;
    parts.push({ name: ROWS_PART, ...rowsPart });
    // The entity's secrets and file references: read from the snapshot a slice at a time, the files looked up asynchronously.
    const tables = tableInfos(snap.db);
    const sealed = sealedSteps(tables, entityId);
    const exported = new Set(Object.keys(counts));
    const found = sealedOf(sealed.tables, await readSteps(snap, sealed.steps)).filter((v) => exported.has(v.table));
    const secrets = await sealSecrets(found, ctx.secrets, passphraseLock(settings), () => snap.pace());
    if (secrets.sealed) addData(SECRETS_PART, Buffer.from(JSON.stringify(secrets.sealed)));
    const blobs = await heldBlobs(ctx.blobs, blobsOf(await readSteps(snap, blobSteps(tables, entityId))));
    const bytes = blobs.reduce((sum, b) => sum + b.size, 0);
    for (const b of blobs) parts.push({ name: blobPartName(b.sha256), size: b.size, sha256: b.sha256, file: b.file });
    const readable = await readableFiles(ctx, snap, entityId, scratch).catch((err: unknown) => {
      throw describeFsError(err, folder);
    });
    const pdfs = new Map((await heldBlobs(ctx.blobs, [...new Set(readable.flatMap((r) => (!r.part && r.blob ? [r.blob] : [])))])).map((b) => [b.sha256, b]));
    for (const r of readable) {
      const pdf = r.blob ? pdfs.get(r.blob) : undefined;
      if (r.part) parts.push({ name: `readable/${r.name}`, ...r.part });
      else if (pdf) parts.push({ name: `readable/${r.name}`, size: pdf.size, sha256: pdf.sha256, file: pdf.file });
    }
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      kind: 'entity',
      appVersion: VERSION,
      createdAt: now.toISOString(),
      migration: appliedMigration(snap.db),
      entities: [{ id: String(entity.id), name: String(entity.name), counts }],
      tables: counts,
      files: { count: blobs.length, bytes },
      secrets: { included: secrets.sealed !== null, count: secrets.count, columns: secrets.columns, ...(secrets.reason ? { reason: secrets.reason } : {}) },
      parts: parts.map(({ name: n, size, sha256 }) => ({ name: n, size, sha256 })),
    };
    return { manifest, parts };
  } finally {
    snap.close();
  }
}
