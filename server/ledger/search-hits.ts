import type { Context } from '../context.js';
import { bestRanked, inColumns, prepared, RANKED_WINDOW, snippetParts, SNIPPET_ARGS, type SearchHit } from '../db/fts.js';

/** The newest matches with their rank and snippet, made in the one scan (asked later by rowid, FTS5 evaluates the query again for each). */
const RECENT_SQL = `
  select s.rowid as doc, s.rank as rank, snippet(ledger_search, 0, ${SNIPPET_ARGS}) as snippet, d.event_id as id
  from ledger_search s join ledger_search_docs d on d.doc = s.rowid
  where ledger_search match ? and d.entity_id = ?
  order by s.rowid desc limit ?`;
/** Its journal entry's description when posted ("Invoice INV-1001 to Acme Ltd"), else its type. */
const EVENT_SQL = `select e.type, e.timestamp, e.posting_status as status,
    (select description from ledger_entries where event_id = e.id and kind = 'posting') as description
  from ledger_events e where e.entity_id = ? and e.id = ?`;

/**
 * Ledger events whose type, payload text, metadata or keys hold every word of the FTS5 query
 * `words`: the best `limit` of the newest matches, each with its snippet.
 */
export function searchLedgerEvents(ctx: Context, entityId: string, words: string, limit: number): { hits: SearchHit[]; more: boolean } {
  const recent = prepared(ctx.sqlite, RECENT_SQL).all(inColumns('body', words), entityId, RANKED_WINDOW) as { doc: number; rank: number; snippet: string; id: string }[];
  const event = prepared(ctx.sqlite, EVENT_SQL);
  const hits = bestRanked(recent, limit).flatMap((r): SearchHit[] => {
    const e = event.get(entityId, r.id) as { type: string; timestamp: string; status: string; description: string | null } | undefined;
    if (!e) return [];
    return [{ id: r.id, title: e.description ?? e.type.replaceAll('_', ' '), detail: `${e.timestamp.slice(0, 10)} · ${e.status.replaceAll('_', ' ')}`, snippet: snippetParts(r.snippet) }];
  });
  return { hits, more: recent.length > limit };
}
