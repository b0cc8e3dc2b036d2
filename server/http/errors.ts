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
  constructor(message: string) {
    super(503, message);
  }
}

/** zod issues as a compact, client-readable list. */
export function zodDetails(err: ZodError): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

export function zodMessage(err: ZodError): string {
  const first = err.issues[0];
  if (!first) return 'Invalid request';
  const where = first.path.length ? `${first.path.join('.')}: ` : '';
  return `${where}${first.message}`;
}

/** The one place where failures become HTTP responses. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      log.error({ err, path: req.path }, 'error after response started');
      return;
    }
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      res.status(err.status).json(err.details === undefined ? { error: err.message } : { error: err.message, details: err.details });
      return;
    }
    if (err instanceof ZodError) {
      res.status(400).json({ error: zodMessage(err), details: zodDetails(err) });
      return;
    }
    // body-parser errors carry a `type`
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return void res.status(400).json({ error: 'Malformed JSON body' });
    if (type === 'entity.too.large') return void res.status(413).json({ error: 'Request body too large' });
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') return void res.status(415).json({ error: 'Unsupported body encoding' });
    log.error({ err, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'Internal server error' });
  };
}
