import type { Database, Statement } from 'better-sqlite3';
import type { Queryable } from '../db/tx.js';
import type { EventRow } from './present.js';
import type { ledgerEntries, ledgerLines } from './tables.js';

/**
 * The statements of the posting path, in plain SQL prepared once per connection and run on
 * whichever transaction or savepoint is open on it. Profiled: building each drizzle query and
 * compiling it again on every call was most of the time of posting an event; after preparing
 * them in drizzle, its placeholder filling and row mapping were still a tenth. The rows read
 * and written are exactly the drizzle tables' (`present.ts` types); JSON and boolean columns
 * are converted here as drizzle would.
 */
type EntryRow = typeof ledgerEntries.$inferInsert;
type LineRow = typeof ledgerLines.$inferInsert;
/** What a posting rule needs of an account. */
export type RuleAccount = { id: string; name: string; archivedAt: string | null };

interface RawStatements {
  settings: Statement<[string], { approvalThresholds: string; requireSeparateApprover: number }>;
  eventByKey: Statement<[string, string], Record<keyof EventRow, unknown>>;
  accountsByCodes: Statement<[string, string], RuleAccount & { code: string }>;
  insertEvent: Statement<unknown[]>;
  insertEntry: Statement<unknown[]>;
  insertLine: Statement<unknown[]>;
}

const EVENT_COLUMNS = `id, entity_id as entityId, type, timestamp, payload, source, correlation_id as correlationId, idempotency_key as idempotencyKey,
  input_hash as inputHash, schema_version as schemaVersion, metadata, recorded_by as recordedBy, posting_status as postingStatus,
  posting_error as postingError, reclassified_from as reclassifiedFrom, reclassified_to as reclassifiedTo, decided_by as decidedBy,
  decided_at as decidedAt, created_at as createdAt, updated_at as updatedAt`;

function prepare(sqlite: Database): RawStatements {
  return {
    settings: sqlite.prepare('select approval_thresholds as approvalThresholds, require_separate_approver as requireSeparateApprover from ledger_settings where entity_id = ?'),
    eventByKey: sqlite.prepare(`select ${EVENT_COLUMNS} from ledger_events where entity_id = ? and idempotency_key = ?`),
    // Every account a rule names, in one lookup (the codes as a JSON array).
    accountsByCodes: sqlite.prepare(
      'select code, id, name, archived_at as archivedAt from ledger_accounts where entity_id = ? and code in (select value from json_each(?))',
    ),
    insertEvent: sqlite.prepare(
      `insert into ledger_events (id, entity_id, type, timestamp, payload, source, correlation_id, idempotency_key, input_hash, schema_version, metadata,
        recorded_by, posting_status, posting_error, reclassified_from, reclassified_to, decided_by, decided_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertEntry: sqlite.prepare('insert into ledger_entries (id, entity_id, event_id, kind, reverses_entry_id, description, effective_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)'),
    insertLine: sqlite.prepare('insert into ledger_lines (id, entity_id, entry_id, position, account_id, currency, side, amount, memo) values (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const parsed = <T>(v: unknown): T => (v === null ? null : JSON.parse(v as string)) as T;

function eventFromRow(r: Record<keyof EventRow, unknown>): EventRow {
  return { ...(r as unknown as EventRow), payload: parsed(r.payload), metadata: parsed(r.metadata), recordedBy: parsed(r.recordedBy) };
}

function build(sqlite: Database) {
  const st = prepare(sqlite);
  return {
    settings(entityId: string) {
      const r = st.settings.get(entityId);
      return r && { approvalThresholds: JSON.parse(r.approvalThresholds) as Record<string, string>, requireSeparateApprover: r.requireSeparateApprover === 1 };
    },
    eventByKey(entityId: string, idempotencyKey: string): EventRow | undefined {
      const r = st.eventByKey.get(entityId, idempotencyKey);
      return r && eventFromRow(r);
    },
    /** The entity's accounts with these codes, by code (codes not in the chart are absent). */
    accountsByCodes(entityId: string, codes: string[]): Map<string, RuleAccount> {
      const byCode = new Map<string, RuleAccount>();
      for (const { code, ...account } of st.accountsByCodes.all(entityId, JSON.stringify(codes))) byCode.set(code, account);
      return byCode;
    },
    insertEvent(e: EventRow) {
      st.insertEvent.run(
        e.id, e.entityId, e.type, e.timestamp, json(e.payload), e.source, e.correlationId, e.idempotencyKey, e.inputHash, e.schemaVersion, json(e.metadata),
        json(e.recordedBy), e.postingStatus, e.postingError, e.reclassifiedFrom, e.reclassifiedTo, e.decidedBy, e.decidedAt, e.createdAt, e.updatedAt,
      );
    },
    insertEntry(e: EntryRow) {
      st.insertEntry.run(e.id, e.entityId, e.eventId, e.kind, e.reversesEntryId ?? null, e.description, e.effectiveAt, e.createdAt);
    },
    insertLine(l: LineRow) {
      st.insertLine.run(l.id, l.entityId, l.entryId, l.position, l.accountId, l.currency, l.side, l.amount, l.memo ?? null);
    },
  };
}

export type LedgerStatements = ReturnType<typeof build>;

// Keyed by the connection, which the database object and all its transactions share.
const cache = new WeakMap<Database, LedgerStatements>();

export function ledgerStatements(db: Queryable): LedgerStatements {
  const sqlite = (db as unknown as { session: { client: Database } }).session.client;
  let st = cache.get(sqlite);
  if (!st) cache.set(sqlite, (st = build(sqlite)));
  return st;
}
