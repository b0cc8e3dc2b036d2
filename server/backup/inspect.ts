import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { defaultMigrationsDir } from '../db/open.js';
import { registerCaptureFallbacks } from '../db/capture-fallbacks.js';
import { quoteIdent as quote } from '../db/quote.js';

/**
 * What a database holds, read generically from its schema so that a module's new table is
 * backed up, counted and exported without this module knowing it: tables, their rows per
 * entity, the files they reference (columns named `sha256` / `…_sha256`) and the secrets sealed
 * by this machine's key (columns named `…_sealed`).
 */

const BLOB_HASH = /^[0-9a-f]{64}$/;

export function userTables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

export interface ColumnInfo {
  name: string;
  pk: number;
}

export function columnsOf(db: Database.Database, table: string): ColumnInfo[] {
  return db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(table) as ColumnInfo[];
}

/** Primary key columns in key order; `rowid` for a table without one. */
export function keyColumns(db: Database.Database, table: string): string[] {
  const pk = columnsOf(db, table)
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return pk.length ? pk : ['rowid'];
}

export function tableCounts(db: Database.Database, tables = userTables(db)): Record<string, number> {
  return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${quote(t)}`).get() as { n: number }).n]));
}

/** Tables whose rows belong to an entity (an `entity_id` column). */
export function entityTables(db: Database.Database): string[] {
  return userTables(db).filter((t) => columnsOf(db, t).some((c) => c.name === 'entity_id'));
}

export interface EntitySummary {
  id: string;
  name: string;
  counts: Record<string, number>;
}

export function entitySummaries(db: Database.Database, only?: string): EntitySummary[] {
  const entities = db.prepare(`SELECT id, name FROM entities ${only ? 'WHERE id = ?' : ''} ORDER BY name, id`).all(...(only ? [only] : [])) as { id: string; name: string }[];
  const tables = entityTables(db);
  return entities.map((e) => ({
    ...e,
    counts: Object.fromEntries(
      tables.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${quote(t)} WHERE entity_id = ?`).get(e.id) as { n: number }).n]).filter(([, n]) => (n as number) > 0),
    ),
  }));
}

function blobColumns(db: Database.Database, table: string): string[] {
  return columnsOf(db, table)
    .map((c) => c.name)
    .filter((n) => n === 'sha256' || n.endsWith('_sha256'));
}

/** Every file hash the database references (optionally only an entity's rows). */
export function referencedBlobs(db: Database.Database, entityId?: string): string[] {
  const found = new Set<string>();
  for (const t of userTables(db)) {
    const scoped = entityId !== undefined;
    if (scoped && !columnsOf(db, t).some((c) => c.name === 'entity_id')) continue;
    for (const col of blobColumns(db, t)) {
      const rows = db.prepare(`SELECT DISTINCT ${quote(col)} AS h FROM ${quote(t)} WHERE ${quote(col)} IS NOT NULL ${scoped ? 'AND entity_id = ?' : ''}`).all(...(scoped ? [entityId] : [])) as { h: unknown }[];
      for (const r of rows) if (typeof r.h === 'string' && BLOB_HASH.test(r.h)) found.add(r.h);
    }
  }
  return [...found].sort();
}

export interface SealedValue {
  table: string;
  /** Primary key values of the row, by column. */
  key: Record<string, unknown>;
  column: string;
  sealed: string;
}

/** Every machine-sealed value (columns `…_sealed`), optionally of one entity's rows. */
export function sealedValues(db: Database.Database, entityId?: string): SealedValue[] {
  const out: SealedValue[] = [];
  for (const t of userTables(db)) {
    const cols = columnsOf(db, t);
    const sealedCols = cols.map((c) => c.name).filter((n) => n.endsWith('_sealed'));
    if (!sealedCols.length) continue;
    const scoped = entityId !== undefined;
    if (scoped && !cols.some((c) => c.name === 'entity_id')) continue;
    const keys = keyColumns(db, t);
    const select = [...keys, ...sealedCols].map(quote).join(', ');
    const rows = db.prepare(`SELECT ${select} FROM ${quote(t)} ${scoped ? 'WHERE entity_id = ?' : ''}`).all(...(scoped ? [entityId] : [])) as Record<string, unknown>[];
    for (const r of rows) {
      const key = Object.fromEntries(keys.map((k) => [k, r[k]]));
      for (const c of sealedCols) if (typeof r[c] === 'string') out.push({ table: t, key, column: c, sealed: r[c] });
    }
  }
  return out;
}

/** Writes one sealed column of one row (found by its primary key). */
export function updateSealed(db: Database.Database, table: string, key: Record<string, unknown>, column: string, sealed: string): number {
  const where = Object.keys(key)
    .map((k) => `${quote(k)} = ?`)
    .join(' AND ');
  return db.prepare(`UPDATE ${quote(table)} SET ${quote(column)} = ? WHERE ${where}`).run(sealed, ...Object.values(key)).changes;
}

export interface MigrationJournal {
  entries: { idx: number; when: number; tag: string }[];
}

export function readJournal(migrationsDir = defaultMigrationsDir): MigrationJournal {
  return JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as MigrationJournal;
}

/** The newest migration applied to `db`: its `when` and, when this app knows it, its tag. */
export function appliedMigration(db: Database.Database, journal = readJournal()): { when: number; tag: string | null } {
  const row = db.prepare('SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1').get() as { created_at: number | string } | undefined;
  const when = Number(row?.created_at ?? 0);
  return { when, tag: journal.entries.find((e) => e.when === when)?.tag ?? null };
}

export function integrityCheck(db: Database.Database): string {
  const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
  return rows.map((r) => r.integrity_check).join('; ');
}

/** Every table's rows in key order, as JSON: equal dumps mean equal data. */
export function canonicalDump(db: Database.Database, tables = userTables(db)): string {
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const order = keyColumns(db, t).map(quote).join(', ');
    out[t] = db.prepare(`SELECT * FROM ${quote(t)} ORDER BY ${order}`).raw().all();
  }
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('base64') : v));
}

/**
 * A connection that writes a backup's or an import's rows: those writes are this device's own
 * restore, not changes to push, so capture's triggers find their "not capturing" functions.
 */
export function withoutSyncCapture(db: Database.Database): void {
  registerCaptureFallbacks(db);
}
