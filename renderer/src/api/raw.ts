/**
 * Calls whose body or answer is more than JSON: a file sent as the raw body, and a list whose
 * paging travels in headers (`x-total-count`, `x-next-cursor`).
 */
import { client, unwrap, type ApiData, type paths } from './client';

type RawUploadPath = { [P in keyof paths]: paths[P] extends { post: { requestBody?: { content: { 'application/octet-stream': string } } } } ? P : never }[keyof paths];

/** Sends `file` as the raw body of `POST path` (the server streams it to disk and checks it). */
export function uploadFile<P extends RawUploadPath>(path: P, file: Blob): Promise<ApiData<P, 'post'>> {
  // The generated type says `string` for a binary body; openapi-fetch sends whatever bodySerializer returns.
  const post = client.POST as unknown as (path: string, init: object) => Promise<{ data?: ApiData<P, 'post'>; error?: unknown; response: Response }>;
  return unwrap(post(path, { body: file, bodySerializer: (b: Blob) => b, headers: { 'content-type': 'application/octet-stream' } }));
}

export interface Page<T> {
  items: T[];
  /** The `cursor` of the next page, or null on the last. */
  nextCursor: string | null;
  /** Every matching item (`x-total-count`), when the route says. */
  total: number | null;
}

/** A list call's items with the paging its headers carry: `unwrapPage(client.GET('/api/helpdesk/tickets', { params: { query } }))`. */
export async function unwrapPage<T>(call: Promise<{ data?: T[]; error?: unknown; response: Response }>): Promise<Page<T>> {
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
