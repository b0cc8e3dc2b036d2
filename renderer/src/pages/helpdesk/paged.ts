import { ApiError, getCurrentEntity, withQuery } from '../../api';

/** GET a list and the pagination headers the helpdesk and webhook lists send. */
export async function getPage<T>(path: string, query: Record<string, string | number | undefined>): Promise<{ items: T[]; nextCursor: string | null; total: number | null }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const entity = getCurrentEntity();
  if (entity) headers['x-entity-id'] = entity;
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), { headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Cannot reach the Bureau server');
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, (data && typeof data.error === 'string' ? data.error : res.statusText) || 'Request failed', data?.details);
  const total = res.headers.get('x-total-count');
  return { items: data as T[], nextCursor: res.headers.get('x-next-cursor'), total: total === null ? null : Number(total) };
}
