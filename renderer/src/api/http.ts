/** The old thin client for the local /api (being replaced by client.ts): JSON in and out, entity in `x-entity-id`, errors as ApiError. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let currentEntityId: string | null = null;

export function setCurrentEntity(id: string | null) {
  currentEntityId = id;
}

export function getCurrentEntity(): string | null {
  return currentEntityId;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

export async function request<T>(method: string, path: string, body?: unknown, init: { query?: Query; headers?: Record<string, string>; raw?: BodyInit } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (currentEntityId) headers['x-entity-id'] = currentEntityId;
  let payload: BodyInit | undefined = init.raw;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, init.query), { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Cannot reach the Bureau server');
  }
  const text = await res.text();
  const data = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
  if (!res.ok) throw new ApiError(res.status, (data && typeof data === 'object' && 'error' in data ? String(data.error) : res.statusText) || 'Request failed', data?.details);
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, undefined, { query }),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, body ?? {}, { query }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown, query?: Query) => request<T>('PATCH', path, body ?? {}, { query }),
  delete: <T>(path: string, body?: unknown, query?: Query) => request<T>('DELETE', path, body, { query }),
};
