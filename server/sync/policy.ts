// Which tables sync. Every table of the schema has exactly one policy, declared by the module
// that owns it (a test fails for a table without one, so a new table cannot silently stay
// behind or silently leave the device).
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from '../db/schema.js';

export type SyncPolicy =
  /** Mutable rows: last writer wins per column (HLC); a delete is a `_deleted` column. */
  | { kind: 'mutable' }
  /** Written once; the same fact from two devices merges into one. */
  | { kind: 'fact' }
  /**
   * Rows whose state moves by guarded transitions (a ledger event's posting status): a row is
   * created once, and a change to a `guards` column carries the values it expects to replace —
   * the hosted instance refuses it when another device moved the row first. Other columns are LWW.
   */
  | { kind: 'guarded'; guards: string[] }
  /** Stays on this device (sessions, queues, per-install counters, …), or does not sync yet. */
  | { kind: 'local'; why: string }
  /** Never leaves the device (keys, sealed tokens). */
  | { kind: 'secret'; why: string };

export type TablePolicies = Record<string, SyncPolicy>;

export const local = (why: string): SyncPolicy => ({ kind: 'local', why });
export const secret = (why: string): SyncPolicy => ({ kind: 'secret', why });
export const mutable: SyncPolicy = { kind: 'mutable' };
export const fact: SyncPolicy = { kind: 'fact' };
export const guarded = (...guards: string[]): SyncPolicy => ({ kind: 'guarded', guards });

/** A synced table as capture and apply see it. */
export interface SyncedTable {
  name: string;
  kind: 'mutable' | 'fact' | 'guarded';
  columns: string[];
  primaryKey: string[];
  /** Guarded tables: the columns whose changes are transitions. */
  guards: string[];
}

/** Every table of the schema by SQL name. */
export function schemaTables(): Map<string, SQLiteTable> {
  const out = new Map<string, SQLiteTable>();
  for (const value of Object.values(schema)) if (value instanceof SQLiteTable) out.set(getTableConfig(value).name, value);
  return out;
}

/** The synced tables, checked: each has an entity_id column and a primary key. */
export function syncedTables(policies: TablePolicies): SyncedTable[] {
  const tables = schemaTables();
  const out: SyncedTable[] = [];
  for (const [name, policy] of Object.entries(policies)) {
    if (policy.kind === 'local' || policy.kind === 'secret') continue;
    const table = tables.get(name);
    if (!table) throw new Error(`Sync policy for unknown table ${name}`);
    const config = getTableConfig(table);
    const columns = config.columns.map((c) => c.name);
    const primaryKey = [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((p) => p.columns.map((c) => c.name))];
    if (!columns.includes('entity_id')) throw new Error(`Synced table ${name} has no entity_id`);
    if (primaryKey.length === 0) throw new Error(`Synced table ${name} has no primary key`);
    const guards = policy.kind === 'guarded' ? policy.guards : [];
    for (const g of guards) if (!columns.includes(g)) throw new Error(`Guarded column ${name}.${g} does not exist`);
    out.push({ name, kind: policy.kind, columns, primaryKey, guards });
  }
  return out;
}
