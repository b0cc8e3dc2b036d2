import type { Context } from '../context.js';
import { bestRanked, RANKED_WINDOW, snippetParts, SNIPPET_ARGS, type SearchHit } from '../db/fts.js';

type Kind = 'tickets' | 'messages';

/** The newest matches of one kind in the entity, with their bm25 rank (tickets: d.source_id = d.ticket_id). */
const recentSql = (kind: Kind) => `
  select s.rowid as doc, s.rank as rank, d.source_id as sourceId, d.ticket_id as ticketId
  from helpdesk_search s join helpdesk_search_docs d on d.doc = s.rowid
  where helpdesk_search match ? and d.entity_id = ? and d.source_id ${kind === 'tickets' ? '=' : '<>'} d.ticket_id
  order by s.rowid desc limit ?`;

const SNIPPET_SQL = `select snippet(helpdesk_search, 0, ${SNIPPET_ARGS}) as snippet from helpdesk_search where helpdesk_search match ? and rowid = ?`;
const TICKET_SQL = 'select subject, ticket_number as number, status from helpdesk_tickets where entity_id = ? and id = ?';
const MESSAGE_SQL = `select m.author_name as author, m.is_internal as internal, t.subject, t.ticket_number as number
  from helpdesk_messages m join helpdesk_tickets t on t.id = m.ticket_id where m.entity_id = ? and m.id = ?`;

/**
 * Tickets (subject, description, contact, number) or messages whose text holds every word of the
 * FTS5 query `match`: the best `limit` of the newest matches, each with its snippet. `more` says
 * there are others.
 */
export function searchHelpdesk(ctx: Context, entityId: string, kind: Kind, match: string, limit: number): { hits: SearchHit[]; more: boolean } {
  const recent = ctx.sqlite.prepare(recentSql(kind)).all(match, entityId, RANKED_WINDOW) as { doc: number; rank: number; sourceId: string; ticketId: string }[];
  const snippet = ctx.sqlite.prepare(SNIPPET_SQL);
  const hits = bestRanked(recent, limit).flatMap((r): SearchHit[] => {
    const parts = snippetParts((snippet.get(match, r.doc) as { snippet: string }).snippet);
    if (kind === 'tickets') {
      const t = ctx.sqlite.prepare(TICKET_SQL).get(entityId, r.ticketId) as { subject: string; number: string; status: string } | undefined;
      return t ? [{ id: r.ticketId, title: t.subject, detail: `${t.number} · ${t.status}`, snippet: parts }] : [];
    }
    const m = ctx.sqlite.prepare(MESSAGE_SQL).get(entityId, r.sourceId) as { author: string; internal: number; subject: string; number: string } | undefined;
    return m ? [{ id: r.sourceId, ticketId: r.ticketId, title: m.subject, detail: `${m.number} · ${m.internal ? 'internal note by' : 'from'} ${m.author}`, snippet: parts }] : [];
  });
  return { hits, more: recent.length > limit };
}
