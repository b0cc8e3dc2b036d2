import { route, type RouteDef } from '../http/route.js';
import { BadRequestError } from '../http/errors.js';
import { readEntityId } from '../http/entity-scope.js';
import { z } from 'zod';
import { searchEverything } from './search.js';
import * as s from './schemas.js';

const uuid = z.uuid();

export const searchRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/search',
      summary: 'Search tickets (with their messages and contacts), documents and ledger events at once (the top bar)',
      description:
        'Results grouped by area, one group per area the caller may read (a member by her role: HELPDESK.VIEW for tickets, DOCUMENTS.VIEW for documents, LEDGER.VIEW for ledger events; an API key by its read scopes); documents only from folders she may see. In each area, the newest matches are ranked by relevance (bm25) and the best `limit` answered, each with a snippet of where the words matched. The entity: `x-entity-id` (or an `entityId` query parameter), or for an API key its own entity. The lists take the same text as `q` to show every match.',
      tags: ['Search'],
      access: 'user',
      query: s.searchQuery,
      response: s.searchResponse,
      errors: { 403: 'Not a member of this entity, an API key of another entity, or no area the caller may read' },
    },
    ({ ctx, req, auth, query }) => {
      // Read here, not by route(): which areas the caller may read is decided per area (areas.ts).
      const entityId = readEntityId({ params: {}, query: req.query, body: undefined, header: (name) => req.get(name) ?? undefined }, 'QBH', true) ?? (auth?.kind === 'apiKey' ? auth.entityId : undefined);
      if (!entityId) throw new BadRequestError('entityId required');
      if (!uuid.safeParse(entityId).success) throw new BadRequestError('entityId must be a UUID');
      return searchEverything(ctx, entityId, auth, query.q, query.limit);
    },
  ),
];
