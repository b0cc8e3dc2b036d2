import type { IncomingMessage, ServerResponse } from 'node:http';
import { hash } from 'node:crypto';
import fresh from 'fresh';

export type EtagFn = (body: string | Buffer, encoding?: BufferEncoding) => string | undefined;

/**
 * Express's default ETag (weak: the body's length and SHA-1, as the `etag` package makes it),
 * hashed one-shot from the string: Express's generator copies the body into a Buffer and builds
 * a hash object per response, which measured at a fifth of answering /api/health. Set as the
 * app's `etag` function, so Express and the direct dispatcher send the same tags as before
 * (test/unit/weak-etag.test.ts).
 */
export const weakEtag: EtagFn = (body, encoding = 'utf8') => {
  const length = typeof body === 'string' ? Buffer.byteLength(body, encoding) : body.length;
  if (length === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  const digest = typeof body === 'string' && encoding !== 'utf8' ? hash('sha1', Buffer.from(body, encoding), 'base64') : hash('sha1', body, 'base64');
  return `W/"${length.toString(16)}-${digest.slice(0, 27)}"`;
};

/**
 * A body already serialised, sent as is: a long list builds its JSON a slice at a time (each in
 * its own turn of the event loop) instead of in one `JSON.stringify` that holds up every request.
 */
export class JsonText<T = unknown> {
  /** The value the text is the JSON of (for the route's response type; never set). */
  declare readonly of?: T;
  constructor(readonly text: string) {}
}

/**
 * `res.status(status).json(body)` as Express answers it (the app sets no JSON replacer, spaces
 * or escaping): `application/json; charset=utf-8`, Content-Length, the app's ETag, 304 when the
 * request is fresh, no body for HEAD; without Express's per-response settings lookups and
 * Content-Type parsing, and the body stays one string (Node sends it with the headers).
 * Used by both the Express routes and the direct dispatcher.
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, etagFn: EtagFn | undefined): void {
  const json = body instanceof JsonText ? body.text : JSON.stringify(body);
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
