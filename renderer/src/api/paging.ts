/**
 * Lists the API pages with a cursor in the `x-next-cursor` header (tickets, webhook deliveries):
 * the body stays the plain array the contract promises, so the next page and the total travel
 * in headers that `unwrap` alone would drop.
 */
import { unwrap } from './client';

export interface CursorPage<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  /** `x-total-count`: every matching row, when the server says. */
  total: number | null;
}

/** One page of a cursor-paged list: `unwrapCursorPage(client.GET('/api/helpdesk/tickets', { params: { query: { limit: 50, cursor } } }))`. */
export async function unwrapCursorPage<T>(call: Promise<{ data?: T[]; error?: unknown; response: Response }>): Promise<CursorPage<T>> {
  let response: Response | undefined;
  const items = await unwrap(
    call.then((answer) => {
      response = answer.response;
      return answer;
    }),
  );
  const total = response?.headers.get('x-total-count') ?? null;
  return { items, nextCursor: response?.headers.get('x-next-cursor') ?? null, total: total === null ? null : Number(total) };
}
