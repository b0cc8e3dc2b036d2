import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Context } from '../context.js';
import { accessLookup } from '../kernel/access.js';
import { errorResponse } from './errors.js';
import { checkOrigin, hostCheck, setSecurityHeaders } from './guards.js';
import { executeRoute, type RouteAnswer, type RouteDef } from './route.js';
import { writeJson, type EtagFn } from './write-json.js';

/**
 * Answers the hottest routes (`spec.direct`) without Express. Measured (test/bench/api): Express
 * alone, answering /api/health with nothing of ours, reaches 0.17 of a bare node:http server —
 * its router and the request/response objects it re-prototypes cost more than our whole route.
 * A direct route goes through the same steps in the same order as the Express pipeline in
 * app.ts, with the same functions: host check, security headers, origin check, the same JSON
 * body parser, credentials, `executeRoute`, `writeJson`, `errorResponse`. Anything else
 * (another path, HEAD, debug request logging on, a proxy trusted) is left to Express.
 * test/integration/direct-dispatch.test.ts compares both answers request by request.
 */
export function createDirectDispatch(ctx: Context, app: Express, routes: RouteDef[], jsonBody: RequestHandler): (req: IncomingMessage, res: ServerResponse) => boolean {
  const table = new Map<string, RouteDef>();
  for (const def of routes) {
    if (!def.spec.direct) continue;
    if (def.spec.path.includes('{') || def.spec.params) throw new Error(`direct route ${def.spec.path} has path parameters`);
    table.set(`${def.spec.method.toUpperCase()} ${def.spec.path}`, def);
  }
  const checkHost = hostCheck(ctx.config.allowedHosts);
  const parseQuery = app.get('query parser fn') as ((query: string) => unknown) | undefined;
  const etagFn = app.get('etag fn') as EtagFn | undefined;
  /** Runs the JSON body parser; a request without a body is passed on synchronously, without a promise. */
  const readBody = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    let sync = true;
    let finished = false;
    let error: unknown;
    let settle: (err: unknown) => void = () => {};
    jsonBody(req as Request, res as Response, (err?: unknown) => {
      if (!sync) return settle(err);
      finished = true;
      error = err;
    });
    sync = false;
    if (!finished) return new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err) : resolve())));
    if (error) throw error;
    return undefined;
  };

  /** The error answer, as Express's error handler gives it; a failure to write it closes the socket. */
  function fail(def: RouteDef, req: IncomingMessage, res: ServerResponse, err: unknown): void {
    try {
      if (res.headersSent) {
        ctx.log.error({ err, path: def.spec.path }, 'error after response started');
        return;
      }
      const { status, headers, body } = errorResponse(ctx.log, err, req.method!, def.spec.path);
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      writeJson(req, res, status, body, etagFn);
    } catch (writeErr) {
      ctx.log.error({ err: writeErr, path: def.spec.path }, 'could not answer a request');
      res.destroy();
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: RouteAnswer): void {
    if (!answer) return; // the handler answered itself
    if (answer.result === undefined) {
      res.statusCode = answer.status;
      res.end();
      return;
    }
    writeJson(req, res, answer.status, answer.result, etagFn);
  }

  /** Credentials, the route, the answer: in this turn when the handler is synchronous. */
  function run(def: RouteDef, req: IncomingMessage, res: ServerResponse, search: string): void {
    try {
      const answer = executeRoute(def, ctx, {
        req: req as Request,
        res: res as Response,
        auth: accessLookup().credentialsOf(ctx, req.method!, req.headers),
        params: {},
        query: parseQuery ? parseQuery(search) : {},
        body: (req as IncomingMessage & { body?: unknown }).body,
        header: (name) => req.headers[name.toLowerCase()] as string | undefined,
        ip: () => req.socket.remoteAddress ?? '',
      });
      if (answer instanceof Promise) answer.then((a) => send(req, res, a)).catch((err: unknown) => fail(def, req, res, err));
      else send(req, res, answer);
    } catch (err) {
      fail(def, req, res, err);
    }
  }

  /** The Express pipeline's steps in its order: guards, security headers, body, then `run`. */
  function answer(def: RouteDef, req: IncomingMessage, res: ServerResponse, search: string): void {
    try {
      checkHost(req.headers);
      setSecurityHeaders(res);
      checkOrigin(req.headers, (req.socket as TLSSocket).encrypted ? 'https' : 'http');
      const reading = readBody(req, res);
      if (reading) reading.then(() => run(def, req, res, search)).catch((err: unknown) => fail(def, req, res, err));
      else run(def, req, res, search);
    } catch (err) {
      fail(def, req, res, err);
    }
  }

  return (req, res) => {
    if (table.size === 0 || app.get('trust proxy') || ctx.log.isLevelEnabled('debug')) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const def = table.get(`${req.method} ${q < 0 ? url : url.slice(0, q)}`);
    if (!def) return false;
    answer(def, req, res, q < 0 ? '' : url.slice(q + 1));
    return true;
  };
}
