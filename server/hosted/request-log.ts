// Failures of the hosted instance, logged so that the log stays bounded whatever strangers send:
// one line per failing request, with a request id (also the response's `x-request-id`, so an
// operator can match a report to it) and a summary — the error's class and code, its message cut
// short with quoted values left out, the method and the route's pattern. Never a body, a query's
// parameters, a stack or the path itself (a signing link's path is its token). Identical failures
// are sampled: the first of each kind per minute, then how many followed.
import crypto from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Clock } from '../context.js';
import { errorResponse } from '../http/errors.js';
import type { HostedContext } from './context.js';

const MAX_MESSAGE = 200;
const SAMPLE_WINDOW_MS = 60_000;
/** Kinds remembered at once (kinds are class × code × route: a few hundred at most in practice). */
const MAX_KINDS = 1_000;

/** Gives every request an id, sent back as `x-request-id`. */
export function requestIds(): RequestHandler {
  return (_req, res, next) => {
    const id = crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader('x-request-id', id);
    next();
  };
}

export interface ErrorSummary {
  class: string;
  code?: string;
  message: string;
}

/**
 * What may be logged of an error. A failed query (drizzle's message is the SQL and all its
 * parameters) is summarized by the database error behind it; quoted parts of a message (where
 * PostgreSQL and JSON.parse put the offending value) are left out.
 */
export function summarizeError(err: unknown): ErrorSummary {
  let e = err as { name?: string; message?: unknown; code?: unknown; cause?: unknown } | null;
  const outer = className(e);
  for (let depth = 0; depth < 5 && e && typeof e.message === 'string' && e.message.startsWith('Failed query') && e.cause; depth++) e = e.cause as typeof e;
  const cls = className(e) === outer ? outer : `${outer}(${className(e)})`;
  const code = typeof e?.code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(e.code) ? e.code : undefined;
  const raw = typeof e?.message === 'string' ? e.message : String(e);
  const text = raw.startsWith('Failed query') ? 'query failed' : raw.replace(/"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?/g, '"…"').replace(/\s+/g, ' ');
  return { class: cls, ...(code ? { code } : {}), message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text };
}

function className(e: unknown): string {
  if (e === null || typeof e !== 'object') return typeof e;
  const name = (e as { constructor?: { name?: unknown } }).constructor?.name ?? (e as { name?: unknown }).name;
  return typeof name === 'string' && name ? name.slice(0, 60) : 'Error';
}

/** Whether a failure of this kind is logged now, and how many of its kind went unlogged before it. */
export function createFailureSampler(clock: Clock, windowMs = SAMPLE_WINDOW_MS) {
  const kinds = new Map<string, { since: number; suppressed: number }>();
  return (kind: string): { log: boolean; suppressed: number } => {
    const now = clock.now().getTime();
    const seen = kinds.get(kind);
    if (seen && now - seen.since < windowMs) {
      seen.suppressed += 1;
      return { log: false, suppressed: 0 };
    }
    if (!seen && kinds.size >= MAX_KINDS) kinds.clear();
    kinds.set(kind, { since: now, suppressed: 0 });
    return { log: true, suppressed: seen?.suppressed ?? 0 };
  };
}

/** The route's pattern (`/api/sign/:token`), never the path: a path can hold a credential. */
const routeOf = (req: Request) => (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : '(no route)');

/** The hosted app's error handler: answers as `errorResponse` says, logs as above. */
export function hostedErrorHandler(h: HostedContext): ErrorRequestHandler {
  const sample = createFailureSampler(h.clock);
  return (err, req, res, _next) => {
    const route = routeOf(req);
    const report = (level: 'warn' | 'error', e: unknown) => {
      const error = summarizeError(e);
      const { log, suppressed } = sample(`${level} ${error.class} ${error.code ?? ''} ${req.method} ${route}`);
      if (!log) return;
      h.log[level]({ requestId: res.locals.requestId as string | undefined, method: req.method, route, error, ...(suppressed ? { suppressed } : {}) }, suppressed ? `request failed (and ${suppressed} more of this kind in the last minute)` : 'request failed');
    };
    if (res.headersSent) {
      report('error', err);
      return;
    }
    const { status, headers, body } = errorResponse(h.log, err, req.method, route, report);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.status(status).json(body);
  };
}
