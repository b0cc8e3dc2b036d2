// Which tables sync. Every table of the schema has exactly one policy, declared by the module
// that owns it (a test fails for a table without one, so a new table cannot silently stay
// behind or silently leave the device). The tables themselves are the app's (server/schema.ts),
// handed over in server/modules.ts, so the kernel does not import every module's tables.
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { definePort } from './port.js';

export type SyncPolicy =
  /**
   * Mutable rows: last writer wins per column (HLC); a delete is a `_deleted` column.
   * `deviceOnly` columns never leave the device (a tx hash that would link a relayed transfer to
   * the entity, a sealed token); another device creating the row fills them with the value given.
   */
  | { kind: 'mutable'; deviceOnly?: DeviceOnlyColumns; blobs?: string[]; hostedOnly?: boolean }
  /** Written once; the same fact from two devices merges into one. */
  | { kind: 'fact'; blobs?: string[] }
  /**
   * Rows whose state moves by guarded transitions (a ledger event's posting status): a row is
   * created once, and a change to a `guards` column carries the values it expects to replace —
   * the hosted instance refuses it when another device moved the row first. Other columns are LWW.
   */
  | { kind: 'guarded'; guards: string[]; deviceOnly?: DeviceOnlyColumns; blobs?: string[] }
  /** Stays on this device (sessions, queues, per-install counters, …), or does not sync yet. */
  | { kind: 'local'; why: string }
  /** Never leaves the device (keys, sealed tokens). */
  | { kind: 'secret'; why: string };

export type TablePolicies = Record<string, SyncPolicy>;
/** Column → the value other devices store in it. */
export type DeviceOnlyColumns = Record<string, string | number | null>;

export const local = (why: string): SyncPolicy => ({ kind: 'local', why });
export const secret = (why: string): SyncPolicy => ({ kind: 'secret', why });
export const mutable: SyncPolicy = { kind: 'mutable' };
export const fact: SyncPolicy = { kind: 'fact' };
export const guarded = (...guards: string[]): SyncPolicy => ({ kind: 'guarded', guards });
export const guardedExcept = (guards: string[], deviceOnly: DeviceOnlyColumns, blobs?: string[]): SyncPolicy => ({ kind: 'guarded', guards, deviceOnly, blobs });

/** The files a change names (by sha256), per its table's `blobs` columns. */
export function blobsOf(tables: SyncedTable[], change: { table: string; columns: Record<string, unknown> }): string[] {
  const table = tables.find((t) => t.name === change.table);
  return (table?.blobs ?? []).map((c) => change.columns[c]).filter((v): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));
}
export const mutableExcept = (deviceOnly: DeviceOnlyColumns): SyncPolicy => ({ kind: 'mutable', deviceOnly });
/**
 * Mutable rows only the hosted instance writes (the people of an entity: it holds accounts and
 * roles). Devices apply them but never capture or push them; a device's push to one is refused.
 */
export const hostedOnly: SyncPolicy = { kind: 'mutable', hostedOnly: true };

/** A synced table as capture and apply see it. */
export interface SyncedTable {
  name: string;
  kind: 'mutable' | 'fact' | 'guarded';
  columns: string[];
  primaryKey: string[];
  /** Guarded tables: the columns whose changes are transitions. */
  guards: string[];
  /** Columns that stay on the device (not in `columns`), with the value other devices store. */
  deviceOnly: DeviceOnlyColumns;
  /** Columns that name a file (blob) by sha256: it is uploaded before, and fetched with, the row. */
  blobs: string[];
  /** Written by the hosted instance only: no capture triggers here, pushes refused there. */
  hostedOnly: boolean;
}

const schemaPort = definePort<Map<string, SQLiteTable>>('schema tables (server/modules.ts registers server/schema.ts)');
const policiesPort = definePort<() => TablePolicies>("table policies (server/modules.ts registers the modules')");

/** The app hands over its schema (every module's tables; other exports are skipped), once, as the modules load. */
export function registerSchemaTables(schema: Record<string, unknown>): void {
  const tables = new Map<string, SQLiteTable>();
  for (const value of Object.values(schema)) if (value instanceof SQLiteTable) tables.set(getTableConfig(value).name, value);
  schemaPort.register(tables);
}

/** The app hands over every module's table policies (the hosted instance checks pushed rows against them). */
export const registerTablePolicies = policiesPort.register;

/** Every table's sync policy, from the modules that own them, as the app registered them. */
export const appTablePolicies = (): TablePolicies => policiesPort.get()();

/** Every table of the schema by SQL name: without the app's, no table could be checked or synced, so it fails. */
export const schemaTables = (): Map<string, SQLiteTable> => new Map(schemaPort.get());

/** The synced tables, checked: each has an entity_id column and a primary key. */
export function syncedTables(policies: TablePolicies): SyncedTable[] {
  const tables = schemaTables();
  const out: SyncedTable[] = [];
  for (const [name, policy] of Object.entries(policies)) {
    if (policy.kind === 'local' || policy.kind === 'secret') continue;
    const table = tables.get(name);
    if (!table) throw new Error(`Sync policy for unknown table ${name}`);
    const config = getTableConfig(table);
    const all = config.columns.map((c) => c.name);
    const deviceOnly = policy.kind === 'mutable' || policy.kind === 'guarded' ? (policy.deviceOnly ?? {}) : {};
    for (const c of Object.keys(deviceOnly)) if (!all.includes(c)) throw new Error(`Device-only column ${name}.${c} does not exist`);
    const columns = all.filter((c) => !(c in deviceOnly));
    const primaryKey = [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((p) => p.columns.map((c) => c.name))];
    if (!columns.includes('entity_id')) throw new Error(`Synced table ${name} has no entity_id`);
    if (primaryKey.length === 0) throw new Error(`Synced table ${name} has no primary key`);
    const guards = policy.kind === 'guarded' ? policy.guards : [];
    for (const g of guards) if (!columns.includes(g)) throw new Error(`Guarded column ${name}.${g} does not exist`);
    for (const c of primaryKey) if (c in deviceOnly) throw new Error(`Key column ${name}.${c} cannot stay on the device`);
    const blobs = policy.blobs ?? [];
    for (const b of blobs) if (!columns.includes(b)) throw new Error(`Blob column ${name}.${b} is not synced`);
    out.push({ name, kind: policy.kind, columns, primaryKey, guards, deviceOnly, blobs, hostedOnly: policy.kind === 'mutable' && policy.hostedOnly === true });
  }
  return out;
}
