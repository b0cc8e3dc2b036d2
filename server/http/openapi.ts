import { createDocument } from 'zod-openapi';
import type { RouteDef, RouteDoc } from './route.js';

const COMMON_ERRORS: Record<number, string> = {
  400: 'Bad input: `{ error, details? }` (zod issues in details)',
  401: 'No or invalid credentials',
  403: 'Authenticated but not allowed, or entityId mismatch',
  404: 'Unknown id in this entity',
};

const errorSchemaRef = { $ref: '#/components/schemas/Error' };

/** One endpoint as the document shows it: its route documentation, who may call it, what can fail. */
export interface DocumentedOperation {
  doc: RouteDoc;
  /** OpenAPI security requirements (`[]`: public). */
  security: Record<string, string[]>[];
  /** Appended to the description: how access is decided (parsed back by the isolation sweeps). */
  accessNote: string;
  /** Every error status the endpoint can answer, with what it means. */
  errors: Record<number, string>;
}

/** The document's own part: title, what it is, how callers authenticate. */
export interface ApiInfo {
  title: string;
  version: string;
  description: string;
  securitySchemes: Record<string, Record<string, unknown>>;
}

/** OpenAPI 3.1 document generated from endpoints' zod schemas (the desktop's and the hosted instance's). */
export function openApiDocument(info: ApiInfo, operations: DocumentedOperation[], webhooks?: Record<string, unknown>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { doc, security, accessNote, errors } of operations) {
    const responses: Record<string, unknown> = {
      [String(doc.status ?? 200)]: doc.response
        ? { description: 'Success', content: { 'application/json': { schema: doc.response } } }
        : { description: 'Success', ...(doc.produces ? { content: { [doc.produces]: { schema: { type: 'string', format: 'binary' } } } } : {}) },
    };
    for (const [status, { description, schema }] of Object.entries(doc.alsoAnswers ?? {})) {
      responses[status] = { description, content: { 'application/json': { schema } } };
    }
    for (const [status, description] of Object.entries(errors)) {
      responses[status] = { description, content: { 'application/json': { schema: errorSchemaRef } } };
    }
    const requestBody = doc.body
      ? { requestBody: { content: { 'application/json': { schema: doc.body } } } }
      : doc.consumes
        ? { requestBody: { content: { [doc.consumes]: { schema: { type: 'string', format: 'binary' } } } } }
        : {};
    (paths[doc.path] ??= {})[doc.method] = {
      summary: doc.summary,
      description: (doc.description ?? '') + accessNote || undefined,
      tags: doc.tags,
      security,
      requestParams: { ...(doc.params ? { path: doc.params } : {}), ...(doc.query ? { query: doc.query } : {}) },
      ...requestBody,
      responses,
    };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    components: {
      schemas: { Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' }, details: {} } } },
      securitySchemes: info.securitySchemes as never,
    },
    paths: paths as never,
    ...(webhooks ? { webhooks: webhooks as never } : {}),
  });
}

/** The desktop's document: every route of the local API, and the webhooks it sends (`webhooks`, by event type). */
export function buildOpenApi(routes: RouteDef[], version: string, webhooks?: Record<string, unknown>) {
  const operations = routes.map(({ spec }): DocumentedOperation => {
    const access = spec.access;
    const security: Record<string, string[]>[] =
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
    return { doc: spec, security, accessNote, errors };
  });
  return openApiDocument(
    {
      title: 'Bureau API',
      version,
      description:
        'The local Bureau API, served on 127.0.0.1. Every failure is `{ "error": string, "details"?: unknown }`. Authenticate with `Authorization: Bearer ak_…` (an API key pinned to one entity, with scopes) or the session cookie plus `x-entity-id`.',
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `ak_…`, pinned to one entity' },
        session: { type: 'apiKey', in: 'cookie', name: 'bureau_session' },
      },
    },
    operations,
    webhooks,
  );
}
