// What a tenant may push: a change a device could have captured. Checked at the door, per change,
// against the table as a device holds it (device-tables.ts): a known synced table, known columns,
// each value of its column's type (text the stores can hold, integers exactly, 0/1 booleans, JSON
// text that parses), a row id of the table's key, the operation its sync policy makes, and the
// pushing entity's own id. A change that fails is rejected with the reason, like any other
// rejection; it is never stored, so nothing downstream (public pages, jobs) meets it.
import { DELETED } from '../sync/capture.js';
import { isSafeText } from '../http/safe-text.js';
import type { Change } from '../sync/protocol.js';
import { deviceTables, type DeviceTable } from './device-tables.js';

const ALLOWED_OPS: Record<DeviceTable['synced']['kind'], Change['op'][]> = {
  mutable: ['upsert'],
  fact: ['fact'],
  guarded: ['upsert', 'transition'],
};

/**
 * Why a device could not have pushed `change` for `entityId`, or null when it could have.
 * `byHosted`: the hosted instance's own change, which alone may write hosted-only tables.
 */
export function changeProblem(change: Change, entityId: string, byHosted = false): string | null {
  const table = deviceTables().get(change.table);
  if (!table) return `Unknown table ${change.table}: it is not synced`;
  const { synced } = table;
  if (synced.hostedOnly && !byHosted) return `${change.table} is written by the hosted instance only (members change through /sync/v1/members and invitations)`;
  if (!ALLOWED_OPS[synced.kind].includes(change.op)) {
    return synced.kind === 'fact' ? 'This record is written once and cannot change' : `${change.table} is not changed by ${change.op}`;
  }
  if (Object.keys(change.columns).length === 0) return 'A change sets at least one column';
  const key = rowIdProblem(table, change.rowId, entityId);
  if (typeof key === 'string') return key;
  for (const [column, value] of Object.entries(change.columns)) {
    const problem = columnProblem(table, column, value);
    if (problem) return problem;
    const at = synced.primaryKey.indexOf(column);
    if (at >= 0 && String(value) !== String(key.parts[at])) return `${change.table}.${column} is not the row id's`;
    if (column === 'entity_id' && value !== entityId) return 'The row belongs to another entity';
  }
  if (change.expect) {
    if (change.op !== 'transition') return 'Only a transition expects values';
    for (const [column, value] of Object.entries(change.expect)) {
      if (!synced.guards.includes(column)) return `${change.table}.${column} is not a guarded column`;
      const problem = columnProblem(table, column, value);
      if (problem) return `expect: ${problem}`;
    }
  }
  return null;
}

function columnProblem(table: DeviceTable, column: string, value: unknown): string | null {
  const name = `${table.synced.name}.${column}`;
  if (column === DELETED) return table.synced.kind !== 'fact' && (value === 0 || value === 1) ? null : `${name} must be 0 or 1 on a table whose rows can be deleted`;
  const known = table.columns.get(column);
  if (!known) return `Unknown column ${name}`;
  const checked = known.value.safeParse(value);
  return checked.success ? null : `${name} ${checked.error.issues[0]?.message ?? 'is invalid'}`;
}

/**
 * The key values a row id stands for: the primary key itself, or the JSON array of a composite
 * key (as the capture triggers write it). Each part is of its column's type; an entity's own
 * settings row (keyed by entity_id) is only its own.
 */
function rowIdProblem(table: DeviceTable, rowId: string, entityId: string): string | { parts: unknown[] } {
  if (!isSafeText(rowId)) return 'The row id must not contain NUL characters or unpaired UTF-16 surrogates';
  const key = table.synced.primaryKey;
  let parts: unknown[] = [rowId];
  // An integer key travels as its decimal text (sync_changes.row_id is text).
  if (key.length === 1 && table.columns.get(key[0])?.kind === 'integer' && /^-?\d{1,16}$/.test(rowId)) parts = [Number(rowId)];
  if (key.length > 1) {
    try {
      parts = JSON.parse(rowId) as unknown[];
    } catch {
      parts = [];
    }
    if (!Array.isArray(parts) || parts.length !== key.length) return `The row id of ${table.synced.name} is the JSON array of its ${key.length} key columns`;
  }
  for (const [i, column] of key.entries()) {
    const part = parts[i];
    if (part === null || part === undefined) return `The row id of ${table.synced.name} has no ${column}`;
    const problem = columnProblem(table, column, part);
    if (problem) return `row id: ${problem}`;
    if (column === 'entity_id' && part !== entityId) return 'The row belongs to another entity';
  }
  return { parts };
}
