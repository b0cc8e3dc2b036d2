// The synced tables as a device's SQLite holds them, as zod schemas built once from the drizzle
// tables and the modules' sync policies: what a pushed change may write (validate-change.ts), and
// how a mirrored row is read back safely (read-row.ts). A column is a value of its SQLite type —
// what the capture triggers' `json_object` yields for it — and never anything else.
import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from '../http/safe-text.js';
import { appTablePolicies, schemaTables, syncedTables, type SyncedTable } from '../kernel/sync-policy.js';
import { MAX_PUSH_BYTES } from '../sync/protocol.js';

/** The longest text value: whatever one push can carry (a drawn signature is up to 400,000 characters). */
export const MAX_TEXT_CHARS = MAX_PUSH_BYTES;

export interface DeviceColumn {
  /** The SQL name (the key in a change's `columns` and a mirrored row). */
  name: string;
  /** The drizzle row's key (camelCase), as the desktop's code reads the row. */
  key: string;
  notNull: boolean;
  kind: 'text' | 'json' | 'integer' | 'boolean' | 'real';
  /** The value as a change carries it (null only where the column allows it). */
  value: z.ZodType;
}

export interface DeviceTable {
  synced: SyncedTable;
  columns: Map<string, DeviceColumn>;
}

/** Deeper JSON is refused: parsing it is fine, but answering it (JSON.stringify recurses) overflows the stack. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays and objects at most `max` deep (counted on the text, without recursion). */
function nestsWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

/** JSON text that parses and nests within MAX_JSON_DEPTH. */
export const isJsonText = (text: string) => {
  try {
    JSON.parse(text);
    return nestsWithin(text, MAX_JSON_DEPTH);
  } catch {
    return false;
  }
};

const text = z.string().max(MAX_TEXT_CHARS, `must be at most ${MAX_TEXT_CHARS} characters`).refine(isSafeText, UNSAFE_TEXT_MESSAGE);
const kinds: Record<string, { kind: DeviceColumn['kind']; value: z.ZodType }> = {
  SQLiteText: { kind: 'text', value: text },
  SQLiteTextJson: { kind: 'json', value: text.refine(isJsonText, `must be JSON text nested at most ${MAX_JSON_DEPTH} deep`) },
  // SQLite integers are 64-bit; JSON carries them exactly only as safe integers (z.int()).
  SQLiteInteger: { kind: 'integer', value: z.int('must be an integer') },
  SQLiteTimestamp: { kind: 'integer', value: z.int('must be an integer') },
  // SQLite has no boolean: the column holds 0 or 1, and so does every change a device captures.
  SQLiteBoolean: { kind: 'boolean', value: z.union([z.literal(0), z.literal(1)], 'must be 0 or 1') },
  SQLiteReal: { kind: 'real', value: z.number('must be a number') },
};

function deviceColumn(column: SQLiteColumn, key: string, table: string): DeviceColumn {
  const known = kinds[column.columnType];
  // A column type nothing here knows fails at the first push after it was added, in every test that pushes.
  if (!known) throw new Error(`Synced column ${table}.${column.name} has a type the hosted instance cannot check: ${column.columnType}`);
  return { name: column.name, key, notNull: column.notNull, kind: known.kind, value: column.notNull ? known.value : known.value.nullable() };
}

let tables: Map<string, DeviceTable> | undefined;

/** Every synced table by SQL name, with its columns (built on first use: the modules load first). */
export function deviceTables(): Map<string, DeviceTable> {
  if (tables) return tables;
  const schema = schemaTables();
  const built = new Map<string, DeviceTable>();
  for (const synced of syncedTables(appTablePolicies())) {
    const table = schema.get(synced.name)!;
    const keyOf = new Map(Object.entries(getTableColumns(table)).map(([key, c]) => [c.name, key]));
    const columns = new Map<string, DeviceColumn>();
    for (const column of getTableConfig(table).columns) {
      if (synced.columns.includes(column.name)) columns.set(column.name, deviceColumn(column, keyOf.get(column.name)!, synced.name));
    }
    built.set(synced.name, { synced, columns });
  }
  tables = built;
  return built;
}
