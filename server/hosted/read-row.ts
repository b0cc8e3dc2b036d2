// Reading a mirrored row back: the row is a tenant's data, so it is parsed, never cast. A row
// that does not read as its table (stored before pushes were checked, or damaged) makes that one
// page answer 409 and that one job skip it; nothing else stops.
import { z } from 'zod';
import { ConflictError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { deviceTables, isJsonText, type DeviceColumn } from './device-tables.js';
import type { RowData } from './mirror.js';

/** A mirrored row that cannot be read as its table: the page that needs it answers 409. */
export class UnreadableRowError extends ConflictError {
  constructor(
    readonly table: string,
    readonly problem: string,
  ) {
    super(`This ${table.replace(/_/g, ' ').replace(/s$/, '')} cannot be shown: its copy on this instance is damaged; the sender's device must send it again`);
  }
}

/** JSON text decoded; anything else stays as the device holds it (booleans become booleans). */
function readColumn(column: DeviceColumn): z.ZodType {
  const value = (() => {
    switch (column.kind) {
      case 'json':
        return z
          .string()
          .refine(isJsonText, 'is not JSON text (or nests too deep to answer)')
          .transform((text) => JSON.parse(text) as unknown);
      // Rows stored before pushes were checked may hold true/false: they read as they were meant.
      case 'boolean':
        return z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);
      default:
        return column.value;
    }
  })();
  return value.nullable().optional();
}

const readers = new Map<string, z.ZodType<Record<string, unknown>>>();

function readerOf(table: string): z.ZodType<Record<string, unknown>> {
  let reader = readers.get(table);
  if (reader) return reader;
  const columns = [...(deviceTables().get(table)?.columns.values() ?? [])];
  // Unknown keys (`_deleted`, columns of another version) are dropped: the desktop's row has none of them.
  reader = z.object(Object.fromEntries(columns.map((c) => [c.name, readColumn(c)]))).transform((row) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) if (row[c.name] !== undefined) out[c.key] = row[c.name];
    return out;
  });
  readers.set(table, reader);
  return reader;
}

/**
 * A mirrored row as the desktop's drizzle row (camelCase keys, booleans and JSON decoded), with
 * `required` SQL columns present and not null; else UnreadableRowError. Missing optional columns
 * stay missing (a row pushed before a device added a column has none).
 */
export function readRow<T>(table: string, data: RowData, required: string[] = ['id']): T {
  const parsed = readerOf(table).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnreadableRowError(table, `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const missing = required.find((c) => data[c] === null || data[c] === undefined);
  if (missing) throw new UnreadableRowError(table, `${missing} is missing`);
  return parsed.data as T;
}

const reported = new WeakMap<HostedContext, Set<string>>();
/** At most this many distinct rows are remembered as reported (then the set starts over). */
const MAX_REPORTED = 10_000;

/** Logs an unreadable row once per process (a job meets it again at every pass). */
export function reportUnreadableRow(h: HostedContext, entityId: string, rowId: string, err: UnreadableRowError): void {
  let seen = reported.get(h);
  if (!seen) reported.set(h, (seen = new Set()));
  const key = `${entityId}/${err.table}/${rowId}`;
  if (seen.has(key)) return;
  if (seen.size >= MAX_REPORTED) seen.clear();
  seen.add(key);
  h.log.warn({ entityId, table: err.table, rowId: rowId.slice(0, 80), problem: err.problem.slice(0, 200) }, 'skipped an unreadable mirrored row');
}
