// The device's HTTP client for the hosted instance's `/sync/v1`: timeouts on every call, and
// failures as HostedError with the status and message the hosted instance gave.
import type { z } from 'zod';

/** How long one call may take (a pull may wait longer by its own waitMs). */
const TIMEOUT_MS = 20_000;

export class HostedError extends Error {
  constructor(
    /** The hosted instance's HTTP status, or 0 when it could not be reached. */
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** `https://host[:port][/prefix]` without a trailing slash; anything else is refused. */
export function normaliseHostedUrl(input: string): string | null {
  try {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || url.search || url.hash) return null;
    return url.toString().replace(/\/+$/, '');
  } catch {
    return null;
  }
}

export async function callHosted<T extends z.ZodType>(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: Buffer; schema?: T; timeoutMs?: number; signal?: AbortSignal },
): Promise<z.output<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.raw) {
    headers['content-type'] = 'application/octet-stream';
    body = new Uint8Array(opts.raw);
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS), ...(opts.signal ? [opts.signal] : [])];
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.any(signals), redirect: 'error' });
  } catch (err) {
    const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new HostedError(0, `Cannot reach the hosted instance at ${base} (${reason})`);
  }
  if (method === 'HEAD') {
    if (res.ok || res.status === 404) return res.ok as z.output<T>;
    throw new HostedError(res.status, `HEAD ${path} answered ${res.status}`);
  }
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  if (!res.ok) {
    const data = isJson ? ((await res.json().catch(() => null)) as { error?: unknown } | null) : null;
    const message = typeof data?.error === 'string' ? data.error : `The hosted instance answered ${res.status}`;
    const retry = Number(res.headers.get('retry-after'));
    throw new HostedError(res.status, message, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  if (res.status === 204) return undefined as z.output<T>;
  if (!isJson) return Buffer.from(await res.arrayBuffer()) as z.output<T>;
  const data: unknown = await res.json();
  if (!opts.schema) return data as z.output<T>;
  const parsed = opts.schema.safeParse(data);
  if (!parsed.success) throw new HostedError(502, 'The hosted instance sent an answer this version does not understand');
  return parsed.data;
}
