/**
 * The renderer's one way to call the local /api. Paths, parameters, bodies and answers are typed
 * from the server's route specs (schema.gen.ts, written by `npm run api:types`), so a change of
 * API shape is a type error here rather than a blank screen. The current entity travels in
 * `x-entity-id`; a failed call throws ApiError with the server's `{ error, details }`.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.gen';
import { ApiError, getCurrentEntity } from './http';

export type { paths, components };
/** A schema the server names (`Schema<'Ticket'>`). */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;

/** What a successful call of `M P` answers (`ApiData<'/api/tickets/{id}', 'get'>`). */
export type ApiData<P extends keyof paths, M extends Method = 'get'> = JsonOf<ResponsesOf<Operation<P, M>>[SuccessStatus & keyof ResponsesOf<Operation<P, M>>]>;
/** The JSON body `M P` takes. */
export type ApiBody<P extends keyof paths, M extends Method = 'post'> = Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters `M P` takes. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

const entityHeader: Middleware = {
  onRequest({ request }) {
    const entity = getCurrentEntity();
    if (entity) request.headers.set('x-entity-id', entity);
    request.headers.set('accept', request.headers.get('accept') ?? 'application/json');
    return request;
  },
};

export const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
client.use(entityHeader);

interface FetchAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a call, or an ApiError: `const ticket = await unwrap(client.GET('/api/tickets/{id}', { params: { path: { id } } }))`.
 * A call that never reached the server is ApiError status 0.
 */
export async function unwrap<T>(call: Promise<FetchAnswer<T>>): Promise<T> {
  let answer: FetchAnswer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'Cannot reach the Bureau server');
  }
  if (!answer.response.ok) {
    const body = answer.error as { error?: unknown; details?: unknown } | string | undefined;
    const message = body && typeof body === 'object' && 'error' in body ? String(body.error) : answer.response.statusText || 'Request failed';
    throw new ApiError(answer.response.status, message, body && typeof body === 'object' ? body.details : undefined);
  }
  return answer.data as T;
}
