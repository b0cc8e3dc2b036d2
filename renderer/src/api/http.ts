/** What every call of the local /api shares: the current entity (sent as `x-entity-id`), ApiError, and query strings for URLs. */
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
