import type { Context } from '../context.js';
import type { Auth } from '../auth/index.js';
import { ftsQueryOf, type SearchHit } from '../db/fts.js';
import { searchDocuments } from '../documents/index.js';
import { accessorOf } from '../folders/index.js';
import { searchTickets } from '../helpdesk/index.js';
import { searchLedgerEvents } from '../ledger/index.js';
import { readableAreas } from './areas.js';
import type { SearchArea, SearchResults } from './schemas.js';

/**
 * The top bar's search: in each area the caller may read, the best `limit` of the newest matches
 * of every word of `q` (documents only in folders she may see), with what matched.
 */
export function searchEverything(ctx: Context, entityId: string, auth: Auth | null, q: string, limit: number): SearchResults {
  const areas = readableAreas(ctx, entityId, auth);
  // The schema refused text with no letter or digit, so there is a query.
  const words = ftsQueryOf(q)!;
  const find: Record<SearchArea, () => { hits: SearchHit[]; more: boolean }> = {
    tickets: () => searchTickets(ctx, entityId, words, limit),
    documents: () => searchDocuments(ctx, entityId, accessorOf(ctx, entityId, auth), words, limit),
    ledgerEvents: () => searchLedgerEvents(ctx, entityId, words, limit),
  };
  return { q, groups: areas.map((area) => ({ area, ...find[area]() })) };
}
