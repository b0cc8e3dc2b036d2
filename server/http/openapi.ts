import { createDocument } from 'zod-openapi';
import type { RouteDef } from './route.js';

const COMMON_ERRORS: Record<number, string> = {
  400: 'Bad input: `{ error, details? }` (zod issues in details)',
  401: 'No or invalid credentials',
  403: 'Authenticated but not allowed, or entityId mismatch',
  404: 'Unknown id in this entity',
};

const errorSchemaRef = { $ref: '#/components/schemas/Error' };

/** OpenAPI 3.1 document generated from the routes' zod schemas. */
export function buildOpenApi(routes: RouteDef[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { spec } of routes) {
    const access = spec.access;
    const security =
      access === 'public'
        ? []
        : access === 'session'
          ? [{ session: [] }]
          : access === 'user'
            ? [{ session: [] }, { apiKey: [] }]
            : access.scope
              ? [{ session: [] }, { apiKey: [access.scope] }]
              : [{ session: [] }];
    const accessNote =
      typeof access === 'object'
        ? `\n\nentityId: ${access.entity} (${{ Q: 'query', QB: 'query or JSON body', QBH: 'query, JSON body or x-entity-id header' }[access.entity]}). Session permission: \`${access.permission}\`. ${access.scope ? `API key scope: \`${access.scope}\`.` : 'API keys are not accepted.'}`
        : '';
    const errors = { ...(access === 'public' ? { 400: COMMON_ERRORS[400] } : COMMON_ERRORS), ...spec.errors };
    const responses: Record<string, unknown> = {
      [String(spec.status ?? 200)]: spec.response
        ? { description: 'Success', content: { 'application/json': { schema: spec.response } } }
        : { description: 'Success', ...(spec.produces ? { content: { [spec.produces]: { schema: { type: 'string', format: 'binary' } } } } : {}) },
    };
    for (const [status, description] of Object.entries(errors)) {
      responses[status] = { description, content: { 'application/json': { schema: errorSchemaRef } } };
    }
    (paths[spec.path] ??= {})[spec.method] = {
      summary: spec.summary,
      description: (spec.description ?? '') + accessNote || undefined,
      tags: spec.tags,
      security,
      requestParams: { ...(spec.params ? { path: spec.params } : {}), ...(spec.query ? { query: spec.query } : {}) },
      ...(spec.body ? { requestBody: { content: { 'application/json': { schema: spec.body } } } } : {}),
      responses,
    };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Bureau API',
      version,
      description:
        'The local Bureau API, served on 127.0.0.1. Every failure is `{ "error": string, "details"?: unknown }`. Authenticate with `Authorization: Bearer ak_…` (an API key pinned to one entity, with scopes) or the session cookie plus `x-entity-id`.',
    },
    components: {
      schemas: { Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' }, details: {} } } },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `ak_…`, pinned to one entity' },
        session: { type: 'apiKey', in: 'cookie', name: 'bureau_session' },
      },
    },
    paths: paths as never,
  });
}
