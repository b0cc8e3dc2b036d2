// Change capture: triggers generated from the drizzle schema write every change of a synced
// table of a linked entity into `sync_changes`, inside the writer's own transaction — nothing
// commits without its log entry, and no write site needs to know about sync.
import type Database from 'better-sqlite3';
import { v4 as uuidv4 } from 'uuid';
import { formatStamp, parseStamp, receive, tick, type HlcState } from './hlc.js';
import type { SyncedTable } from '../kernel/sync-policy.js';
import { quoteIdent as q } from '../db/quote.js';

/** The column a delete of a mutable row is recorded in. */
export const DELETED = '_deleted';
/**
 * The stamp of every column of a row that has no stamp of its own (never of `_deleted`): a row
 * taken whole from a snapshot, written once, gets one entry instead of one per column — at 20
 * columns a row that was most of a new device's initial sync. Any later write stamps its columns.
 */
export const ROW_STAMP = '*';

/** What the triggers call back into: the clock, and whether to capture at all. */
export interface Capture {
  /** Entities whose changes are captured (the linked ones). */
  setLinked(entityIds: Iterable<string>): void;
  /** Runs `apply` with capture off: remote changes are applied, never echoed back. */
  withoutCapture<T>(apply: () => T): T;
  /** Runs `undo` with capture off, allowed to delete journal rows a refused group wrote here. */
  undoingRefused<T>(undo: () => T): T;
  /** Marks the start and end of an outermost write: its changes form one group. */
  beginGroup(): void;
  endGroup(): void;
  /** A stamp for a change made here now. */
  stamp(): string;
  /** Moves the clock past a stamp received from elsewhere (throws ClockSkewError when too far ahead). */
  observe(stamp: string): void;
  readonly node: string;
}

const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The row id of a row: its primary key, or the JSON array of a composite key. */
export function rowIdSql(table: SyncedTable, ref: 'NEW' | 'OLD'): string {
  return table.primaryKey.length === 1 ? `${ref}.${q(table.primaryKey[0])}` : `json_array(${table.primaryKey.map((c) => `${ref}.${q(c)}`).join(', ')})`;
}

/** The row as a JSON object of every column (capture and the link snapshot use the same form). */
export function rowJson(table: SyncedTable, ref: 'NEW' | 'OLD'): string {
  return `json_object(${table.columns.map((c) => `${lit(c)}, ${ref}.${q(c)}`).join(', ')})`;
}

/** Records stamps for the columns of the change just inserted. */
function stampsSql(table: SyncedTable, ref: 'NEW' | 'OLD'): string {
  return `INSERT INTO sync_stamps (table_name, row_id, "column", hlc)
    SELECT c.table_name, c.row_id, j.key, c.hlc FROM sync_changes c, json_each(c.columns) j
    WHERE changes() > 0 AND c.local_seq = last_insert_rowid() AND c.table_name = ${lit(table.name)} AND c.row_id = ${rowIdSql(table, ref)}
    ON CONFLICT (table_name, row_id, "column") DO UPDATE SET hlc = excluded.hlc;`;
}

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** The JSON object of the guarded columns' values in a row (what a transition expects). */
function guardsJson(table: SyncedTable, ref: 'NEW' | 'OLD'): string {
  return `json_object(${table.guards.map((c) => `${lit(c)}, ${ref}.${q(c)}`).join(', ')})`;
}

/**
 * The capture triggers of one table (dropped and recreated at a start that finds them different).
 * - mutable: an insert or update is an `upsert` of the columns it set; a delete sets `_deleted`.
 * - fact: the insert is the `fact`.
 * - guarded: the insert is a `transition` that creates the row once; an update that changes a
 *   guarded column is a `transition` expecting the old values; other updates are `upsert`s.
 * Every change records its local transaction (`sync_group()`), and inserts are marked so that
 * undoing a refused group knows which rows it created.
 */
export function triggerSql(table: SyncedTable): string[] {
  // Rows only the hosted instance writes are applied here, never captured.
  if (table.hostedOnly) return [];
  const t = q(table.name);
  const name = (what: string) => q(`sync_capture_${table.name}_${what}`);
  const insertOp = table.kind === 'fact' ? 'fact' : table.kind === 'guarded' ? 'transition' : 'upsert';
  const head = `INSERT INTO sync_changes (change_id, entity_id, table_name, row_id, op, columns, expect, hlc, group_id, inserted, created_at)`;
  // A re-created row (same deterministic id after a delete) must also clear the delete flag.
  const inserted = table.kind === 'fact' ? rowJson(table, 'NEW') : `json_set(${rowJson(table, 'NEW')}, '$.${DELETED}', 0)`;
  const guardChanged = table.guards.map((c) => `OLD.${q(c)} IS NOT NEW.${q(c)}`).join(' OR ');
  const updateOp = table.kind === 'guarded' ? `CASE WHEN ${guardChanged} THEN 'transition' ELSE 'upsert' END` : `'upsert'`;
  const updateExpect = table.kind === 'guarded' ? `CASE WHEN ${guardChanged} THEN ${guardsJson(table, 'OLD')} END` : 'NULL';
  const statements = [
    `DROP TRIGGER IF EXISTS ${name('insert')}`,
    `DROP TRIGGER IF EXISTS ${name('update')}`,
    `DROP TRIGGER IF EXISTS ${name('delete')}`,
    `CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t} WHEN sync_capturing(NEW.entity_id) BEGIN
      ${head} VALUES (sync_change_id(), NEW.entity_id, ${lit(table.name)}, ${rowIdSql(table, 'NEW')}, '${insertOp}', ${inserted}, NULL, sync_stamp(), sync_group(), 1, ${NOW});
      ${stampsSql(table, 'NEW')}
    END`,
    `CREATE TRIGGER ${name('update')} AFTER UPDATE ON ${t} WHEN sync_capturing(NEW.entity_id) BEGIN
      ${head} SELECT sync_change_id(), NEW.entity_id, ${lit(table.name)}, ${rowIdSql(table, 'NEW')}, ${updateOp}, d, ${updateExpect}, sync_stamp(), sync_group(), 0, ${NOW}
        FROM (SELECT sync_diff(${rowJson(table, 'OLD')}, ${rowJson(table, 'NEW')}) AS d) WHERE d IS NOT NULL;
      ${stampsSql(table, 'NEW')}
    END`,
  ];
  if (table.kind !== 'fact') {
    statements.push(`CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t} WHEN sync_capturing(OLD.entity_id) BEGIN
      ${head} VALUES (sync_change_id(), OLD.entity_id, ${lit(table.name)}, ${rowIdSql(table, 'OLD')}, 'upsert', json_object('${DELETED}', 1), NULL, sync_stamp(), sync_group(), 0, ${NOW});
      ${stampsSql(table, 'OLD')}
    END`);
  }
  return statements;
}

/** The columns whose values differ between two rows (as JSON), or null when none do. */
export function diffColumns(before: string, after: string): string | null {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (JSON.stringify(a[k]) !== JSON.stringify(v)) changed[k] = v;
  return Object.keys(changed).length ? JSON.stringify(changed) : null;
}

/**
 * Registers the functions the triggers call and (re)creates the triggers. The clock starts
 * past every stamp this database has seen, so stamps keep increasing across restarts.
 */
export function installCapture(sqlite: Database.Database, tables: SyncedTable[], node: string, now: () => number): Capture {
  let clock: HlcState = { wallMs: 0, counter: 0, node };
  const newest = sqlite.prepare('SELECT max(hlc) AS hlc FROM sync_stamps').get() as { hlc: string | null };
  const seen = newest.hlc ? parseStamp(newest.hlc) : null;
  if (seen) clock = { wallMs: seen.wallMs, counter: seen.counter, node };
  let linked = new Set<string>();
  let applying = 0;
  let undoing = 0;
  // The group of the transaction in progress. Transactions are synchronous here, so a group also
  // ends when control returns to the event loop (a write outside `write()`, server/db/write.ts).
  let group: string | null = null;
  const currentGroup = () => {
    if (!sqlite.inTransaction) return uuidv4(); // an autocommit statement is its own group
    if (group === null) {
      group = uuidv4();
      queueMicrotask(() => (group = null));
    }
    return group;
  };

  const capture: Capture = {
    node,
    setLinked(ids) {
      linked = new Set(ids);
    },
    withoutCapture(apply) {
      applying += 1;
      try {
        return apply();
      } finally {
        applying -= 1;
      }
    },
    undoingRefused(undo) {
      undoing += 1;
      try {
        return capture.withoutCapture(undo);
      } finally {
        undoing -= 1;
      }
    },
    beginGroup() {
      group = null;
    },
    endGroup() {
      group = null;
    },
    stamp() {
      clock = tick(clock, now());
      return formatStamp(clock);
    },
    observe(stamp) {
      const remote = parseStamp(stamp);
      if (remote) clock = receive(clock, remote, now());
    },
  };
  sqlite.function('sync_capturing', { deterministic: false, directOnly: false }, (entityId: unknown) => (applying === 0 && typeof entityId === 'string' && linked.has(entityId) ? 1 : 0));
  sqlite.function('sync_stamp', { deterministic: false }, () => capture.stamp());
  sqlite.function('sync_change_id', { deterministic: false }, () => uuidv4());
  sqlite.function('sync_diff', { deterministic: false }, (before: unknown, after: unknown) => diffColumns(String(before), String(after)));
  sqlite.function('sync_group', { deterministic: false }, currentGroup);
  sqlite.function('sync_undoing_refused', { deterministic: false }, () => (undoing > 0 ? 1 : 0));
  const statements = tables.flatMap(triggerSql);
  // Recreated only when they differ from what the database has (a start with the same schema,
  // the usual case, then writes nothing): SQLite keeps each trigger's CREATE statement verbatim.
  if (!triggersCurrent(sqlite, tables, statements)) {
    sqlite.transaction(() => {
      for (const statement of statements) sqlite.exec(statement);
    })();
  }
  return capture;
}

/** Whether the database's capture triggers of `tables` are exactly the CREATE statements among `statements`. */
function triggersCurrent(sqlite: Database.Database, tables: SyncedTable[], statements: string[]): boolean {
  const wanted = new Map<string, string>();
  for (const statement of statements) {
    const m = /^CREATE TRIGGER "((?:[^"]|"")+)"/.exec(statement);
    if (m) wanted.set(m[1].replace(/""/g, '"'), statement);
  }
  // Every name the DROP statements cover: a trigger a table no longer has must go too.
  const ours = new Set(tables.flatMap((t) => ['insert', 'update', 'delete'].map((what) => `sync_capture_${t.name}_${what}`)));
  const existing = (sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[]).filter((t) => ours.has(t.name));
  return existing.length === wanted.size && existing.every((t) => wanted.get(t.name) === t.sql);
}
