import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { BlockedTargetError, checkTargetStatically, guardedLookup } from './targets.js';
import { VERSION } from '../version.js';

export const DELIVERY_TIMEOUT_MS = 15_000;
const EXCERPT_BYTES = 1024;
const MAX_READ_BYTES = 64 * 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  retryAfter: string | null;
  error: string | null;
  /** The target was refused by the local-address policy (not a network failure). */
  blocked: boolean;
  /** Dropped because the server is closing: not the endpoint's failure, so not an attempt. */
  aborted?: boolean;
}

const CLOSING = { statusCode: null, responseExcerpt: null, retryAfter: null, error: 'Not sent: Bureau is closing', blocked: false, aborted: true } as const;

/**
 * POSTs one signed webhook. Redirects are not followed (a 3xx is a failure, as with Svix);
 * the whole exchange is bounded by the timeout; only the start of the response is kept.
 */
export function sendWebhook(req: { url: string; headers: Record<string, string>; body: string; allowLocal: boolean; timeoutMs?: number; signal?: AbortSignal }): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(req.url);
  try {
    checkTargetStatically(url, req.allowLocal);
  } catch (err) {
    return Promise.resolve({ statusCode: null, durationMs: 0, responseExcerpt: null, retryAfter: null, error: (err as Error).message, blocked: true });
  }
  if (req.signal?.aborted) return Promise.resolve({ ...CLOSING, durationMs: 0 });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': `Bureau-Webhooks/${VERSION}`, 'content-length': Buffer.byteLength(req.body).toString(), ...req.headers },
        lookup: guardedLookup(req.allowLocal),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            responseExcerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') || null,
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
            error: null,
            blocked: false,
          });
        res.on('data', (c: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(c);
          size += c.length;
          if (size > MAX_READ_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, responseExcerpt: null, retryAfter: null, error: `Timed out after ${(req.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000} s`, blocked: false });
      request.destroy();
    }, req.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    // Closing the app: drop the request now rather than wait out the timeout.
    const abort = () => {
      finish(CLOSING);
      request.destroy();
    };
    req.signal?.addEventListener('abort', abort, { once: true });
    request.on('close', () => req.signal?.removeEventListener('abort', abort));
    request.on('error', (err) => finish({ statusCode: null, responseExcerpt: null, retryAfter: null, error: describe(err), blocked: err instanceof BlockedTargetError }));
    request.end(req.body);
  });
}

function describe(err: Error & { code?: string }): string {
  if (err instanceof BlockedTargetError) return err.message;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
