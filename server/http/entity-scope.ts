import { z } from 'zod';
import type { Context } from '../context.js';
import { accessLookup, type Auth } from '../kernel/access.js';
import { roleAllows } from '../kernel/permissions.js';
import type { EntityAccess, RouteRequest } from './route.js';
import { BadRequestError, ForbiddenError, UnauthorizedError } from './errors.js';

/** The optional `entityId` field of a QBH route's query or body schema (documented once). */
export const entityIdField = z.uuid('must be a UUID').optional().meta({ description: 'The entity (QBH: query, body or x-entity-id).' });

/**
 * Where a route reads entityId from, as the API contract marks it:
 * Q = query only, QB = query or JSON body, QBH = query, body or `x-entity-id`.
 * Browser sessions may always name the entity in `x-entity-id` (contract section 5.3).
 */
export type EntitySource = 'Q' | 'QB' | 'QBH';

const uuid = z.uuid();

type RequestParts = Pick<RouteRequest, 'params' | 'query' | 'body' | 'header'>;

export function readEntityId(req: RequestParts, source: EntitySource, allowHeader: boolean): string | undefined {
  // A path segment named entityId (e.g. /api/entities/{entityId}/members) always counts.
  const candidates: unknown[] = [req.params?.entityId, isObject(req.query) ? req.query.entityId : undefined];
  if (source !== 'Q') candidates.push(isObject(req.body) ? req.body.entityId : undefined);
  if (source === 'QBH' || allowHeader) candidates.push(req.header('x-entity-id'));
  const given = candidates.filter((v) => v !== undefined && v !== '');
  if (given.some((v) => typeof v !== 'string')) throw new BadRequestError('entityId must be a string');
  const distinct = [...new Set(given as string[])];
  if (distinct.length > 1) throw new BadRequestError('entityId given more than once with different values');
  return distinct[0];
}

/** Authorizes the request for one entity and returns its id; every failure is an HttpError. */
export function resolveEntityAccess(ctx: Context, req: RequestParts, auth: Auth | null, access: EntityAccess): string {
  if (!auth) throw new UnauthorizedError();
  const entityId = readEntityId(req, access.entity, auth.kind === 'session');
  if (!entityId) throw new BadRequestError('entityId required');
  if (!uuid.safeParse(entityId).success) throw new BadRequestError('entityId must be a UUID');
  if (auth.kind === 'apiKey') {
    if (!access.scope) throw new ForbiddenError('This route requires a signed-in session; API keys are not accepted');
    if (auth.entityId !== entityId) throw new ForbiddenError('API key is not valid for this entity');
    if (!auth.scopes.includes(access.scope)) throw new ForbiddenError(`API key lacks the ${access.scope} scope`);
    return entityId;
  }
  const role = accessLookup().memberRoleOf(ctx, entityId, auth.userId);
  if (!role) throw new ForbiddenError('Not a member of this entity');
  if (!roleAllows(role, access.permission)) throw new ForbiddenError(`Your role lacks the ${access.permission} permission`);
  return entityId;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
