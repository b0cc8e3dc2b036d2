import { and, count, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { countMatches, entityMatch, ftsQueryOf, matchingIds, newestMatches } from '../db/fts.js';
import type { Context } from '../context.js';
import { presentEvent } from './present.js';
import { ledgerEvents, POSTING_STATUSES, type PostingStatus } from './tables.js';

export interface EventFilter {
  postingStatus?: PostingStatus;
  type?: string;
  correlationId?: string;
  from?: string;
  to?: string;
  /** Full-text search (ledger_search, migration 0027). */
  q?: string;
}

/** Events whose indexed text holds every word of `text` (no word at all: none). */
function matchesSearch(ctx: Context, entityId: string, text: string): SQL {
  return matchingIds(ctx.sqlite, SEARCH_INDEX, ledgerEvents.id, searchMatch(entityId, text));
}

/** The FTS5 query for the list's `q` among the entity's events; null when it has no word. */
function searchMatch(entityId: string, text: string): string | null {
  const words = ftsQueryOf(text);
  return words === null ? null : entityMatch(entityId, 'body', words);
}

const SEARCH_INDEX = { fts: 'ledger_search', docs: 'ledger_search_docs', idColumn: 'event_id' };

/**
 * A page of a search with no other filter: the index has one row per event and the entity is in
 * the match, so FTS5 alone counts them, and the page is read walking the index newest first.
 */
function newestSearchPage(ctx: Context, entityId: string, text: string, page: number, pageSize: number) {
  const match = searchMatch(entityId, text);
  if (match === null) return { events: [], total: 0, page, pageSize };
  const want = page * pageSize;
  // `+entity_id`: the ids are looked up by key, not found by walking the entity's index.
  const { rows, everyMatch } = newestMatches(ctx.sqlite, SEARCH_INDEX, match, { want }, (ids) =>
    ctx.db
      .select()
      .from(ledgerEvents)
      .where(sql`+${ledgerEvents.entityId} = ${entityId} and ${ledgerEvents.id} in (select value from json_each(${JSON.stringify(ids)}))`)
      .all(),
  );
  return { events: rows.slice(want - pageSize).map(presentEvent), total: everyMatch ?? countMatches(ctx.sqlite, SEARCH_INDEX, match), page, pageSize };
}

function where(ctx: Context, entityId: string, f: EventFilter, withStatus: boolean): SQL | undefined {
  return and(
    eq(ledgerEvents.entityId, entityId),
    withStatus && f.postingStatus ? eq(ledgerEvents.postingStatus, f.postingStatus) : undefined,
    f.type ? eq(ledgerEvents.type, f.type) : undefined,
    f.correlationId ? eq(ledgerEvents.correlationId, f.correlationId) : undefined,
    f.from ? gte(ledgerEvents.timestamp, new Date(f.from).toISOString()) : undefined,
    f.to ? lte(ledgerEvents.timestamp, new Date(f.to).toISOString()) : undefined,
    f.q !== undefined ? matchesSearch(ctx, entityId, f.q) : undefined,
  );
}

/** One page of events, newest first (createdAt, then id). A page past the end is empty. */
export function listEvents(ctx: Context, entityId: string, f: EventFilter & { page: number; pageSize: number }) {
  if (f.q !== undefined && !f.postingStatus && !f.type && !f.correlationId && !f.from && !f.to) return newestSearchPage(ctx, entityId, f.q, f.page, f.pageSize);
  const cond = where(ctx, entityId, f, true);
  const total = ctx.db.select({ n: count() }).from(ledgerEvents).where(cond).get()?.n ?? 0;
  const rows = ctx.db
    .select()
    .from(ledgerEvents)
    .where(cond)
    .orderBy(desc(ledgerEvents.createdAt), desc(ledgerEvents.id))
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize)
    .all();
  return { events: rows.map(presentEvent), total, page: f.page, pageSize: f.pageSize };
}

/** How many events are in each posting status (all statuses present), for the other filters. */
export function countEventsByStatus(ctx: Context, entityId: string, f: EventFilter) {
  const rows = ctx.db
    .select({ status: ledgerEvents.postingStatus, n: count() })
    .from(ledgerEvents)
    .where(where(ctx, entityId, f, false))
    .groupBy(ledgerEvents.postingStatus)
    .all();
  const counts = Object.fromEntries(POSTING_STATUSES.map((s) => [s, 0])) as Record<PostingStatus, number>;
  for (const r of rows) counts[r.status] = r.n;
  return { counts, total: rows.reduce((a, r) => a + r.n, 0) };
}
