import type { Context } from '../context.js';
import { bestRanked, inColumns, prepared, RANKED_WINDOW, snippetParts, SNIPPET_ARGS, type SearchHit } from '../db/fts.js';

/**
 * The newest matching tickets of the entity, with their bm25 rank and snippet (one index row per
 * ticket: migration 0028). The snippet is made here, in the one scan: asked of a row by its rowid
 * later, FTS5 evaluates the whole query again for each.
 */
const RECENT_SQL = `
  select s.rowid as doc, s.rank as rank, snippet(helpdesk_search, 0, ${SNIPPET_ARGS}) as snippet, d.ticket_id as ticketId
  from helpdesk_search s join helpdesk_search_docs d on d.doc = s.rowid
  where helpdesk_search match ? and d.entity_id = ?
  order by s.rowid desc limit ?`;
const TICKET_SQL = 'select subject, ticket_number as number, status, contact_name as contact from helpdesk_tickets where entity_id = ? and id = ?';

/**
 * Tickets whose subject, description, contact, number or messages hold every word of the FTS5
 * query `words`: the best `limit` of the newest matches, each with the snippet of where it
 * matched (a message's words show there). `more` says there are others.
 */
export function searchTickets(ctx: Context, entityId: string, words: string, limit: number): { hits: SearchHit[]; more: boolean } {
  const recent = prepared(ctx.sqlite, RECENT_SQL).all(inColumns('body', words), entityId, RANKED_WINDOW) as { doc: number; rank: number; snippet: string; ticketId: string }[];
  const hits = bestRanked(recent, limit).flatMap((r): SearchHit[] => {
    const t = prepared(ctx.sqlite, TICKET_SQL).get(entityId, r.ticketId) as { subject: string; number: string; status: string; contact: string | null } | undefined;
    if (!t) return [];
    return [{ id: r.ticketId, title: t.subject, detail: [t.number, t.status, t.contact].filter(Boolean).join(' · '), snippet: snippetParts(r.snippet) }];
  });
  return { hits, more: recent.length > limit };
}
