/**
 * Addresses of API downloads that are links rather than fetch calls (`<a href download>`): a link
 * carries the session cookie but no header, so the entity travels in the query (QBH). The path is
 * one the API declares, so a renamed route is a type error here too.
 */
import type { paths } from './client';
import { getCurrentEntity, withQuery } from './http';
import { fillPath } from './urls';

type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? { [key in K | keyof PathParams<Rest>]: string } : Record<never, string>;

/** `apiHref('/api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}', { ticketId, attachmentId })` → a URL with `entityId`. */
export function apiHref<P extends keyof paths & string>(path: P, params: PathParams<P>, query: Record<string, string | number | boolean | undefined | null> = {}): string {
  return withQuery(fillPath(path, params as Record<string, string>), { entityId: getCurrentEntity(), ...query });
}
