/**
 * URLs of the local /api for what is not a fetch: an EventSource, a download link. Built from the
 * typed paths so a renamed route is a type error here too; the entity goes in the query because
 * neither can send the `x-entity-id` header.
 */
import type { ApiQuery, paths } from './client';
import { withQuery } from './http';

type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
type PathParamsOf<P extends GetPath> = paths[P] extends { get: { parameters: { path?: infer X } } } ? ([X] extends [never] ? never : X) : never;
type QueryOf<P extends GetPath> = ([ApiQuery<P, 'get'>] extends [never] ? unknown : ApiQuery<P, 'get'>) & { entityId?: string };

/** `apiUrl('/api/notifications/stream', { query: { entityId } })` → `/api/notifications/stream?entityId=…`. */
export function apiUrl<P extends GetPath>(path: P, options: { path?: PathParamsOf<P>; query?: QueryOf<P> } = {}): string {
  return withQuery(fillPath(path, (options.path ?? {}) as Record<string, string>), options.query as Record<string, string | number | boolean | undefined | null> | undefined);
}

/** `/api/x/{id}` with its parameters filled in, each encoded. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}
