import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { defaultMigrationsDir } from '../db/open.js';
import { registerCaptureFallbacks } from '../db/capture-fallbacks.js';
import { quoteIdent as quote } from '../db/quote.js';
import type { BatchStep } from '../db/read-pool.js';

/**
 * What a database holds, read generically from its schema so that a module's new table is
 * backed up, counted and exported without this module knowing it: tables, their rows per
 * entity, the files they reference (columns named `sha256` / `…_sha256`) and the secrets sealed
 * by this machine's key (columns named `…_sealed`).
 */

const BLOB_HASH = /^[0-9a-f]{64}$/;

/** The tables a backup holds: every table but SQLite's own and drizzle's (`__…`), by name. */
const USER_TABLE = "type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\'";

export function userTables(db: Database.Database): string[] {
  return (db.prepare(`SELECT name FROM sqlite_master WHERE ${USER_TABLE} ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
}

export interface ColumnInfo {
  name: string;
  pk: number;
}

export function columnsOf(db: Database.Database, table: string): ColumnInfo[] {
  return db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(table) as ColumnInfo[];
}

/** A table and its columns: what the reads below are built from. */
export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
}

/**
 * The reads of a database's contents (counts, file hashes, sealed values) as SQL steps, so that
 * the same rules run on a connection here (`onConnection`) or as a batch in a worker of their own
 * (server/db/read-pool.ts `withFileReader`: a backup's copy, read without holding the API).
 */

/** Every user table with its columns, in one step (`tablesOf` reads its rows). */
export const schemaStep: BatchStep = {
  sql: `SELECT m.name AS tbl, p.name AS name, p.pk AS pk FROM (SELECT name FROM sqlite_master WHERE ${USER_TABLE}) m JOIN pragma_table_info(m.name) p ORDER BY m.name, p.cid`,
  params: [],
};

export function tablesOf(rows: unknown[]): TableInfo[] {
  const tables = new Map<string, TableInfo>();
  for (const r of rows as { tbl: string; name: string; pk: number }[]) {
    let t = tables.get(r.tbl);
    if (!t) tables.set(r.tbl, (t = { name: r.tbl, columns: [] }));
    t.columns.push({ name: r.name, pk: r.pk });
  }
  return [...tables.values()];
}

/** Runs steps on a connection here (the CLI, tests, an export's own snapshot). */
export function onConnection(db: Database.Database, steps: BatchStep[]): unknown[][] {
  return steps.map((st) => db.prepare(st.sql).all(...st.params));
}

export function tableInfos(db: Database.Database): TableInfo[] {
  return tablesOf(onConnection(db, [schemaStep])[0]);
}

const hasEntity = (t: TableInfo) => t.columns.some((c) => c.name === 'entity_id');

function keyColumnsOf(t: TableInfo): string[] {
  const pk = t.columns
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return pk.length ? pk : ['rowid'];
}

/** Primary key columns in key order; `rowid` for a table without one. */
export function keyColumns(db: Database.Database, table: string): string[] {
  return keyColumnsOf({ name: table, columns: columnsOf(db, table) });
}

/** One count per table, in `tables`' order. */
export const countSteps = (tables: string[]): BatchStep[] => tables.map((t) => ({ sql: `SELECT count(*) AS n FROM ${quote(t)}`, params: [] }));

export const countsOf = (tables: string[], results: unknown[][]): Record<string, number> => Object.fromEntries(tables.map((t, i) => [t, (results[i][0] as { n: number }).n]));

export function tableCounts(db: Database.Database, tables = userTables(db)): Record<string, number> {
  return countsOf(tables, onConnection(db, countSteps(tables)));
}

/** Tables whose rows belong to an entity (an `entity_id` column). */
export function entityTables(db: Database.Database): string[] {
  return tableInfos(db)
    .filter(hasEntity)
    .map((t) => t.name);
}

export interface EntitySummary {
  id: string;
  name: string;
  counts: Record<string, number>;
}

/** The entities (optionally one), and each entity table's rows per entity: one step each, the entities first. */
export function summarySteps(tables: TableInfo[], only?: string): BatchStep[] {
  const scope = only ? { where: 'WHERE entity_id = ?', params: [only] } : { where: '', params: [] };
  return [
    { sql: `SELECT id, name FROM entities ${only ? 'WHERE id = ?' : ''} ORDER BY name, id`, params: scope.params },
    ...tables.filter(hasEntity).map((t) => ({ sql: `SELECT entity_id AS e, count(*) AS n FROM ${quote(t.name)} ${scope.where} GROUP BY entity_id`, params: scope.params })),
  ];
}

/** Each entity with its tables' counts (tables without its rows left out), from `summarySteps`' results. */
export function summariesOf(tables: TableInfo[], results: unknown[][]): EntitySummary[] {
  const [entities, ...perTable] = results as [{ id: string; name: string }[], ...{ e: unknown; n: number }[][]];
  const names = tables.filter(hasEntity).map((t) => t.name);
  const byTable = perTable.map((rows) => new Map(rows.map((r) => [r.e, r.n])));
  return entities.map((e) => ({
    ...e,
    counts: Object.fromEntries(names.map((t, i) => [t, byTable[i].get(e.id) ?? 0]).filter(([, n]) => (n as number) > 0)),
  }));
}

export function entitySummaries(db: Database.Database, only?: string): EntitySummary[] {
  const tables = tableInfos(db);
  return summariesOf(tables, onConnection(db, summarySteps(tables, only)));
}

function blobColumns(t: TableInfo): string[] {
  return t.columns.map((c) => c.name).filter((n) => n === 'sha256' || n.endsWith('_sha256'));
}

/** The file hashes the rows reference (columns `sha256` / `…_sha256`; optionally only an entity's rows): one step per column. */
export function blobSteps(tables: TableInfo[], entityId?: string): BatchStep[] {
  const scoped = entityId !== undefined;
  return tables
    .filter((t) => !scoped || hasEntity(t))
    .flatMap((t) => blobColumns(t).map((col) => ({ sql: `SELECT DISTINCT ${quote(col)} AS h FROM ${quote(t.name)} WHERE ${quote(col)} IS NOT NULL ${scoped ? 'AND entity_id = ?' : ''}`, params: scoped ? [entityId] : [] })));
}

/** The hashes of `blobSteps`' results, once each, sorted. */
export function blobsOf(results: unknown[][]): string[] {
  const found = new Set<string>();
  for (const rows of results) for (const r of rows as { h: unknown }[]) if (typeof r.h === 'string' && BLOB_HASH.test(r.h)) found.add(r.h);
  return [...found].sort();
}

/** Every file hash the database references (optionally only an entity's rows). */
export function referencedBlobs(db: Database.Database, entityId?: string): string[] {
  return blobsOf(onConnection(db, blobSteps(tableInfos(db), entityId)));
}

export interface SealedValue {
  table: string;
  /** Primary key values of the row, by column. */
  key: Record<string, unknown>;
  column: string;
  sealed: string;
}

const sealedColumns = (t: TableInfo) => t.columns.map((c) => c.name).filter((n) => n.endsWith('_sealed'));

/** The tables holding machine-sealed values (columns `…_sealed`; optionally only an entity's rows) and one step each. */
export function sealedSteps(tables: TableInfo[], entityId?: string): { tables: TableInfo[]; steps: BatchStep[] } {
  const scoped = entityId !== undefined;
  const holding = tables.filter((t) => sealedColumns(t).length && (!scoped || hasEntity(t)));
  const steps = holding.map((t) => ({
    sql: `SELECT ${[...keyColumnsOf(t), ...sealedColumns(t)].map(quote).join(', ')} FROM ${quote(t.name)} ${scoped ? 'WHERE entity_id = ?' : ''}`,
    params: scoped ? [entityId] : [],
  }));
  return { tables: holding, steps };
}

/** The sealed values of `sealedSteps`' results. */
export function sealedOf(tables: TableInfo[], results: unknown[][]): SealedValue[] {
  const out: SealedValue[] = [];
  tables.forEach((t, i) => {
    const keys = keyColumnsOf(t);
    for (const r of results[i] as Record<string, unknown>[]) {
      const key = Object.fromEntries(keys.map((k) => [k, r[k]]));
      for (const c of sealedColumns(t)) if (typeof r[c] === 'string') out.push({ table: t.name, key, column: c, sealed: r[c] });
    }
  });
  return out;
}

/** Every machine-sealed value (columns `…_sealed`), optionally of one entity's rows. */
export function sealedValues(db: Database.Database, entityId?: string): SealedValue[] {
  const { tables, steps } = sealedSteps(tableInfos(db), entityId);
  return sealedOf(tables, onConnection(db, steps));
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

/** The newest migration applied (`migrationOf` reads its rows). */
export const migrationStep: BatchStep = { sql: 'SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1', params: [] };

export function migrationOf(rows: unknown[], journal = readJournal()): { when: number; tag: string | null } {
  const when = Number((rows[0] as { created_at: number | string } | undefined)?.created_at ?? 0);
  return { when, tag: journal.entries.find((e) => e.when === when)?.tag ?? null };
}

/** The newest migration applied to `db`: its `when` and, when this app knows it, its tag. */
export function appliedMigration(db: Database.Database, journal = readJournal()): { when: number; tag: string | null } {
  return migrationOf(onConnection(db, [migrationStep])[0], journal);
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
