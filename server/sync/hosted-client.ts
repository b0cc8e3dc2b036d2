// The device's HTTP client for the hosted instance's `/sync/v1`: timeouts on every call, and
// failures as HostedError with the status and message the hosted instance gave.
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { PROTOCOL_VERSION } from './protocol.js';

/** How long one call may take (a pull may wait longer by its own waitMs). */
const TIMEOUT_MS = 20_000;

export class HostedError extends Error {
  constructor(
    /** The hosted instance's HTTP status, or 0 when it could not be reached. */
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** The hosted instance's time when it answered (every answer carries it), when it did. */
    readonly serverTime: string | null = null,
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

/**
 * Every hosted answer names the oldest device schema version it accepts: a device older than
 * that stops here (state "update required", its synced data read-only) instead of writing data
 * the hosted instance and newer devices would read differently.
 */
function refuseIfOutdated(res: Response): void {
  const min = Number(res.headers.get('x-min-schema-version'));
  if (Number.isInteger(min) && min > PROTOCOL_VERSION) {
    void res.body?.cancel().catch(() => undefined);
    throw new HostedError(426, `Update required: the hosted instance accepts schema version ${min} and later; this is version ${PROTOCOL_VERSION}`);
  }
}

export async function callHosted<T extends z.ZodType>(
  base: string,
  method: string,
  path: string,
  /** `raw`: bytes, or a stream of them (a file sent as it is read); `stream`: a non-JSON answer's body as it arrives. */
  opts: { token?: string; body?: unknown; raw?: Buffer | Readable; stream?: boolean; schema?: T; timeoutMs?: number; signal?: AbortSignal },
): Promise<z.output<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.raw) {
    headers['content-type'] = 'application/octet-stream';
    body = opts.raw instanceof Readable ? (Readable.toWeb(opts.raw) as ReadableStream<Uint8Array>) : new Uint8Array(opts.raw);
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS), ...(opts.signal ? [opts.signal] : [])];
  let res: Response;
  try {
    // A streamed body is sent as it is read (`duplex: 'half'`, which undici requires for one).
    res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.any(signals), redirect: 'error', ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
  } catch (err) {
    if (opts.raw instanceof Readable) opts.raw.destroy();
    const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new HostedError(0, `Cannot reach the hosted instance at ${base} (${reason})`);
  }
  refuseIfOutdated(res);
  if (method === 'HEAD') {
    if (res.ok || res.status === 404) return res.ok as z.output<T>;
    throw new HostedError(res.status, `HEAD ${path} answered ${res.status}`);
  }
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  if (!res.ok) {
    const data = isJson ? ((await res.json().catch(() => null)) as { error?: unknown } | null) : null;
    const message = typeof data?.error === 'string' ? data.error : `The hosted instance answered ${res.status}`;
    const retry = Number(res.headers.get('retry-after'));
    throw new HostedError(res.status, message, Number.isFinite(retry) && retry > 0 ? retry : null, res.headers.get('x-server-time'));
  }
  if (res.status === 204) return undefined as z.output<T>;
  if (!isJson && opts.stream) return (res.body ?? Readable.from([])) as z.output<T>;
  if (!isJson) return Buffer.from(await res.arrayBuffer()) as z.output<T>;
  const data: unknown = await res.json();
  if (!opts.schema) return data as z.output<T>;
  const parsed = opts.schema.safeParse(data);
  if (!parsed.success) throw new HostedError(502, 'The hosted instance sent an answer this version does not understand');
  return parsed.data;
}

/**
 * A GET whose answer is NDJSON, handed over in batches of lines as it arrives (a snapshot may be far
 * bigger than memory should hold). Lines longer than `maxLineBytes` fail the call.
 */
export async function streamHostedLines(base: string, path: string, opts: { token: string; maxLineBytes: number; idleMs?: number; onLines: (lines: string[]) => void | Promise<void> }): Promise<void> {
  const stalled = new AbortController();
  let timer = setTimeout(() => stalled.abort(), opts.idleMs ?? TIMEOUT_MS);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stalled.abort(), opts.idleMs ?? TIMEOUT_MS);
  };
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${opts.token}` }, signal: stalled.signal, redirect: 'error' });
  } catch (err) {
    clearTimeout(timer);
    const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new HostedError(0, `Cannot reach the hosted instance at ${base} (${reason})`);
  }
  try {
    refuseIfOutdated(res);
    if (!res.ok || !res.body) {
      const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
      const retry = Number(res.headers.get('retry-after'));
      throw new HostedError(res.status, typeof data?.error === 'string' ? data.error : `The hosted instance answered ${res.status}`, Number.isFinite(retry) && retry > 0 ? retry : null);
    }
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      alive();
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop()!;
      if (rest.length > opts.maxLineBytes) throw new HostedError(502, 'The hosted instance sent a line longer than this device accepts');
      if (lines.length > 0) await opts.onLines(lines.filter(Boolean));
    }
    rest += decoder.decode();
    if (rest) await opts.onLines([rest]);
  } catch (err) {
    if (err instanceof HostedError) throw err;
    if (stalled.signal.aborted) throw new HostedError(0, `The hosted instance at ${base} stopped sending`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
