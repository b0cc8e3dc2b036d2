/**
 * URLs of the local /api for what is not a typed fetch: an EventSource, a download link, an upload
 * with progress (XHR). Built from the typed paths so a renamed route is a type error here too. A
 * link or an EventSource carries the session cookie but no header, so the current entity goes in
 * the query (QBH) unless the caller says otherwise (`entityId: null` for an XHR that sets the header).
 */
import type { ApiQuery, paths } from './client';
import { getCurrentEntity, withQuery } from './http';

type Scalar = string | number | boolean | undefined | null;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** `{ ticketId: string; attachmentId: string }` for `/api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}`. */
type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? { [key in K | keyof PathParams<Rest>]: string } : Record<never, string>;
/** The query a route declares for the method, or any scalars when it declares none (a CSV download's filters). */
type QueryOf<P extends keyof paths, M extends Method> = ([ApiQuery<P, M>] extends [never] ? Record<string, Scalar> : { [K in keyof ApiQuery<P, M>]?: ApiQuery<P, M>[K] | null }) & { entityId?: string | null };

/**
 * `apiUrl('/api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}', { path: { ticketId, attachmentId } })`
 * → `/api/helpdesk/tickets/t1/attachments/a1?entityId=…`. `method` only picks which declared query is typed.
 */
export function apiUrl<P extends keyof paths & string, M extends Method = 'get'>(path: P, options: { method?: M; path?: PathParams<P>; query?: QueryOf<P, M> } = {}): string {
  const params = (options.path ?? {}) as Record<string, string>;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  return withQuery(filled, { entityId: getCurrentEntity(), ...(options.query as Record<string, Scalar> | undefined) });
}
