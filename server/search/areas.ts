import type { Context } from '../context.js';
import type { Auth } from '../auth/index.js';
import { roleOf } from '../auth/index.js';
import { roleAllows, type Permission, type Scope } from '../auth/index.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { SEARCH_AREAS, type SearchArea } from './schemas.js';

/** What reading each area takes: the permission a member's role needs, the scope an API key needs. */
const NEEDS: Record<SearchArea, { permission: Permission; scope: Scope }> = {
  tickets: { permission: 'HELPDESK.VIEW', scope: 'read:helpdesk' },
  documents: { permission: 'DOCUMENTS.VIEW', scope: 'read:documents' },
  ledgerEvents: { permission: 'LEDGER.VIEW', scope: 'read:ledger' },
};

/**
 * The areas the caller may search in the entity, as each area's own list route would allow them:
 * 403 for a non-member or another entity's API key, and when no area is left.
 */
export function readableAreas(ctx: Context, entityId: string, auth: Auth | null): SearchArea[] {
  if (!auth) throw new UnauthorizedError();
  let allowed: (need: { permission: Permission; scope: Scope }) => boolean;
  if (auth.kind === 'apiKey') {
    if (auth.entityId !== entityId) throw new ForbiddenError('API key is not valid for this entity');
    allowed = (need) => auth.scopes.includes(need.scope);
  } else {
    const role = roleOf(ctx, entityId, auth.userId);
    if (!role) throw new ForbiddenError('Not a member of this entity');
    allowed = (need) => roleAllows(role, need.permission);
  }
  const areas = SEARCH_AREAS.filter((a) => allowed(NEEDS[a]));
  if (areas.length === 0) throw new ForbiddenError('You may not read any area this search covers');
  return areas;
}
