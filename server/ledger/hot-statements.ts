import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open.js';
import { ledgerAccounts, ledgerEntries, ledgerEvents, ledgerLines, ledgerSettings } from './tables.js';

/**
 * Prepared statements for the posting path (measured: building each drizzle query and having
 * SQLite compile it again on every call took most of the time of posting an event). Prepared
 * once per connection and run on whichever transaction or savepoint is open on it.
 */
const ph = (name: string) => sql.placeholder(name);

function build(db: Db) {
  return {
    settings: db.select().from(ledgerSettings).where(eq(ledgerSettings.entityId, ph('entityId'))).prepare(),
    eventByKey: db
      .select()
      .from(ledgerEvents)
      .where(and(eq(ledgerEvents.entityId, ph('entityId')), eq(ledgerEvents.idempotencyKey, ph('idempotencyKey'))))
      .prepare(),
    accountByCode: db
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.entityId, ph('entityId')), eq(ledgerAccounts.code, ph('code'))))
      .prepare(),
    insertEvent: db
      .insert(ledgerEvents)
      .values({
        id: ph('id'),
        entityId: ph('entityId'),
        type: ph('type'),
        timestamp: ph('timestamp'),
        payload: ph('payload'),
        source: ph('source'),
        correlationId: ph('correlationId'),
        idempotencyKey: ph('idempotencyKey'),
        inputHash: ph('inputHash'),
        schemaVersion: ph('schemaVersion'),
        metadata: ph('metadata'),
        recordedBy: ph('recordedBy'),
        postingStatus: ph('postingStatus'),
        postingError: ph('postingError'),
        reclassifiedFrom: ph('reclassifiedFrom'),
        reclassifiedTo: ph('reclassifiedTo'),
        decidedBy: ph('decidedBy'),
        decidedAt: ph('decidedAt'),
        createdAt: ph('createdAt'),
        updatedAt: ph('updatedAt'),
      })
      .prepare(),
    insertEntry: db
      .insert(ledgerEntries)
      .values({
        id: ph('id'),
        entityId: ph('entityId'),
        eventId: ph('eventId'),
        kind: ph('kind'),
        reversesEntryId: ph('reversesEntryId'),
        description: ph('description'),
        effectiveAt: ph('effectiveAt'),
        createdAt: ph('createdAt'),
      })
      .prepare(),
    insertLine: db
      .insert(ledgerLines)
      .values({
        id: ph('id'),
        entityId: ph('entityId'),
        entryId: ph('entryId'),
        position: ph('position'),
        accountId: ph('accountId'),
        currency: ph('currency'),
        side: ph('side'),
        amount: ph('amount'),
        memo: ph('memo'),
      })
      .prepare(),
  };
}

export type LedgerStatements = ReturnType<typeof build>;

// Keyed by drizzle's session, which the database object and all its transactions share.
const cache = new WeakMap<object, LedgerStatements>();

export function ledgerStatements(db: Db): LedgerStatements {
  const session = (db as unknown as { session: object }).session;
  let st = cache.get(session);
  if (!st) cache.set(session, (st = build(db)));
  return st;
}
