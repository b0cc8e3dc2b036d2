import type { Context } from '../context.js';
import { bestRanked, inColumns, RANKED_WINDOW, snippetParts, SNIPPET_ARGS, type SearchHit } from '../db/fts.js';
import { visibleFolderIds, type Accessor } from '../folders/index.js';


/**
 * Documents whose name or PDF text holds every word of the FTS5 query `words`, among those the
 * accessor may see (unfiled ones, and those in folders her grants show): the best `limit` of the
 * newest matches, each with its snippet.
 */
export function searchDocuments(ctx: Context, entityId: string, accessor: Accessor, words: string, limit: number): { hits: SearchHit[]; more: boolean } {
  const visible = visibleFolderIds(ctx, entityId, accessor);
  const folderFilter = visible === null ? '' : 'and (x.folder_id is null or x.folder_id in (select value from json_each(?)))';
  const recent = ctx.sqlite
    .prepare(
      // The snippet in the one scan: asked later by rowid, FTS5 evaluates the query again for each.
      `select s.rowid as doc, s.rank as rank, snippet(documents_search, -1, ${SNIPPET_ARGS}) as snippet, x.id, x.name, x.page_count as pages, f.name as folder
       from documents_search s join documents_search_docs d on d.doc = s.rowid join documents x on x.id = d.document_id
       left join folders f on f.id = x.folder_id
       where documents_search match ? and d.entity_id = ? ${folderFilter}
       order by s.rowid desc limit ?`,
    )
    .all(...[inColumns('name body', words), entityId, ...(visible === null ? [] : [JSON.stringify([...visible])]), RANKED_WINDOW]) as { doc: number; rank: number; snippet: string; id: string; name: string; pages: number; folder: string | null }[];
  const hits = bestRanked(recent, limit).map((r) => ({
    id: r.id,
    title: r.name,
    detail: `${r.folder ?? 'Unfiled'} · ${r.pages} ${r.pages === 1 ? 'page' : 'pages'}`,
    snippet: snippetParts(r.snippet),
  }));
  return { hits, more: recent.length > limit };
}
