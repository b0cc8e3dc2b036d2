import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';

export type EtagFn = (body: string, encoding: BufferEncoding) => string | undefined;

/**
 * `res.status(status).json(body)` as Express answers it (the app sets no JSON replacer, spaces
 * or escaping): `application/json; charset=utf-8`, Content-Length, the app's ETag, 304 when the
 * request is fresh, no body for HEAD; without Express's per-response settings lookups and
 * Content-Type parsing, and the body stays one string (Node sends it with the headers).
 * Used by both the Express routes and the direct dispatcher.
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, etagFn: EtagFn | undefined): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  if (typeof etagFn === 'function' && res.getHeader('etag') === undefined) {
    const tag = etagFn(json, 'utf8');
    if (tag) res.setHeader('ETag', tag);
  }
  if (isFresh(req, res)) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(json, 'utf8');
}

/** Express's `req.fresh`: a GET or HEAD answered 2xx or 304 whose validators the client already has. */
function isFresh(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const status = res.statusCode;
  if ((status < 200 || status >= 300) && status !== 304) return false;
  return fresh(req.headers, { etag: res.getHeader('etag'), 'last-modified': res.getHeader('last-modified') });
}
