import type { ErrorRequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from 'pino';

/** A failure that maps to an HTTP status; `message` is safe to show to the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(400, message, details);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Authentication required') {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(409, message, details);
  }
}
/** Something that existed and no longer can be used (an expired or withdrawn invitation). */
export class GoneError extends HttpError {
  constructor(message: string) {
    super(410, message);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}
export class RateLimitedError extends HttpError {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class BadGatewayError extends HttpError {
  constructor(message: string, details?: unknown) {
    super(502, message, details);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(503, message, undefined, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** Error bodies stay small whatever the input: at most this many details, each of bounded length. */
const MAX_DETAILS = 20;
const MAX_TEXT = 300;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** zod issues as a compact, client-readable list. */
export function zodDetails(err: ZodError): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: clip(i.path.join('.')), message: clip(i.message) }));
}

export function zodMessage(err: ZodError): string {
  const first = err.issues[0];
  if (!first) return 'Invalid request';
  const where = first.path.length ? `${first.path.join('.')}: ` : '';
  return clip(`${where}${first.message}`);
}

/** `{error, details}`; a long details list is cut, saying how many were left out. */
function errorBody(message: string, details: unknown): Record<string, unknown> {
  if (details === undefined) return { error: message };
  if (Array.isArray(details) && details.length > MAX_DETAILS) {
    return { error: message, details: details.slice(0, MAX_DETAILS), detailsOmitted: details.length - MAX_DETAILS };
  }
  return { error: message, details };
}

/** Errors from Express, body-parser, the router or stream parsers carry their HTTP status. */
function clientStatusOf(err: unknown): number | null {
  if (typeof err !== 'object' || err === null) return null;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code < 500 ? code : null;
}

/** What body-parser's typed failures mean, in words a client can act on. */
const bodyErrorMessages: Record<string, string> = {
  'entity.parse.failed': 'Malformed JSON body',
  'entity.too.large': 'Request body too large',
  'encoding.unsupported': 'Unsupported body encoding',
  'charset.unsupported': 'Unsupported body charset',
  'entity.verify.failed': 'Request body failed verification',
  'request.aborted': 'Request aborted before the body was complete',
  'request.size.invalid': 'Request body length does not match Content-Length',
  'stream.encoding.set': 'Request body could not be read',
  'stream.not.readable': 'Request body could not be read',
  'parameters.too.many': 'Too many parameters',
};

/**
 * Failures of infrastructure we call (a chain node through viem, the prover): the request was
 * fine, the service behind it was not. Matched by name so this module loads none of them.
 */
const UPSTREAM_ERRORS: Record<string, [number, string]> = {
  HttpRequestError: [502, 'The chain node could not be reached'],
  TimeoutError: [502, 'A service this request needs (chain node, bundler) did not answer in time'],
  RpcRequestError: [502, 'The chain node refused the request'],
  WebSocketRequestError: [502, 'The chain node could not be reached'],
  ProverTimeoutError: [503, 'The prover is busy; try again shortly'],
  ProverWorkerError: [503, 'The prover stopped unexpectedly; try again'],
};

function upstreamOf(err: unknown): [number, string] | null {
  for (let e = err as { name?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const known = e.name && Object.hasOwn(UPSTREAM_ERRORS, e.name) ? UPSTREAM_ERRORS[e.name] : undefined;
    if (known) return known;
  }
  return null;
}

/** How a failure that is not the client's is logged (the hosted instance logs a bounded summary instead). */
export type FailureReport = (level: 'warn' | 'error', err: unknown) => void;

/** The one place where failures become HTTP responses: the status, headers and JSON body of one. */
export function errorResponse(
  log: Logger,
  err: unknown,
  method: string,
  path: string,
  report: FailureReport = (level, e) => log[level]({ err: e, method, path }, level === 'warn' ? 'upstream failure' : 'unhandled error'),
): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  if (err instanceof HttpError) return { status: err.status, headers: err.headers, body: errorBody(err.message, err.details) };
  if (err instanceof ZodError) return { status: 400, headers: {}, body: errorBody(zodMessage(err), zodDetails(err)) };
  const status = clientStatusOf(err);
  if (status !== null) {
    const { type, code, expose, message } = err as { type?: string; code?: unknown; expose?: boolean; message?: string };
    const undecodable = typeof code === 'string' && /^(Z_|ERR_BROTLI|ERR_ZSTD)/.test(code);
    const text = undecodable
      ? 'Request body could not be decoded with its Content-Encoding'
      : ((type && bodyErrorMessages[type]) ?? (expose && message ? clip(message) : `Request refused (${status})`));
    return { status, headers: {}, body: { error: text } };
  }
  const upstream = upstreamOf(err);
  if (upstream) {
    report('warn', err);
    return { status: upstream[0], headers: {}, body: { error: upstream[1] } };
  }
  report('error', err);
  return { status: 500, headers: {}, body: { error: 'Internal server error' } };
}

/** Express's error middleware: every failure answered as `errorResponse` says. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      log.error({ err, path: req.path }, 'error after response started');
      return;
    }
    const { status, headers, body } = errorResponse(log, err, req.method, req.path);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.status(status).json(body);
  };
}
