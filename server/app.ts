import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import type { Context } from './context.js';
import { modules } from './modules.js';
import { authenticate } from './auth/index.js';
import { errorHandler, NotFoundError } from './http/errors.js';
import { hostGuard, originGuard, securityHeaders } from './http/guards.js';
import { noStore } from './http/cache.js';
import { expressPath, route, runRoute, type RouteDef } from './http/route.js';
import { buildOpenApi } from './http/openapi.js';
import { createDirectDispatch } from './http/direct.js';
import { weakEtag } from './http/write-json.js';
import { VERSION } from './version.js';
import { z } from 'zod';
import { webhookDocs } from './webhooks/index.js';

const coreRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/health', summary: 'Liveness and version', tags: ['Meta'], access: 'public', response: z.object({ status: z.literal('ok'), version: z.string() }), direct: true },
    () => ({ status: 'ok' as const, version: VERSION }),
  ),
];

/**
 * One line per API request. Logs the route *pattern* (`/api/sign/:token`), never the concrete
 * path, query or headers, so tokens and keys cannot reach the log.
 */
function requestLog(ctx: Context): RequestHandler {
  return (req, res, next) => {
    // The line is at debug level: when that is off (the default), no timing, no listener.
    if (!ctx.log.isLevelEnabled('debug') || !req.path.startsWith('/api/')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = req.route?.path ?? '(unmatched)';
      ctx.log.debug({ method: req.method, route, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

export function allRoutes(): RouteDef[] {
  return [...coreRoutes, ...modules.flatMap((m) => m.routes)];
}

/**
 * What the HTTP server runs for each request: the direct dispatcher for the hottest routes
 * (server/http/direct.ts), the Express app for everything else.
 */
export function createRequestListener(ctx: Context): RequestListener {
  const jsonBody = express.json({ limit: ctx.config.jsonLimit });
  const app = createApp(ctx, jsonBody);
  const direct = createDirectDispatch(ctx, app, allRoutes(), jsonBody);
  return (req, res) => {
    if (!direct(req, res)) app(req, res);
  };
}

/** The Express app: guards, credentials, every module's routes, the UI, and errors as JSON. */
export function createApp(ctx: Context, jsonBody: RequestHandler = express.json({ limit: ctx.config.jsonLimit })): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.set('etag', weakEtag);
  app.use(requestLog(ctx));
  app.use(hostGuard(ctx.config.allowedHosts));
  app.use(securityHeaders());
  // A signer's name, e-mail and fields, behind a token in the URL: never kept in a cache (as on the hosted instance).
  app.use('/api/sign', noStore());
  app.use(originGuard());
  app.use('/api', jsonBody);
  app.use('/api', authenticate(ctx));

  const routes = allRoutes();
  // Built on first request, not at start: it is about 300 ms of zod work nobody needs to start.
  let openapi: ReturnType<typeof buildOpenApi> | null = null;
  app.get('/api/openapi.json', (_req, res) => void res.json((openapi ??= buildOpenApi(routes, VERSION, webhookDocs()))));
  // Literal segments win over parameters (`/api/documents/folders` before `/api/documents/{id}`),
  // whatever order the modules are listed in.
  const specificity = (p: string) => p.split('/').map((seg) => (seg.startsWith('{') ? '1' : '0')).join('');
  // Ordinal comparison of '0'/'1' strings (localeCompare's collator setup was 10 ms of the start).
  const byKey = routes.map((def) => ({ def, key: specificity(def.spec.path) }));
  const ordered = byKey.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.def);
  for (const def of ordered) {
    app[def.spec.method](expressPath(def.spec.path), (req, res) => runRoute(def, ctx, req, res));
  }
  app.use('/api', (req, _res, next) => next(new NotFoundError(`No route ${req.method} ${req.baseUrl}${req.path}`)));

  const ui = ctx.config.rendererDir;
  if (ui && fs.existsSync(path.join(ui, 'index.html'))) {
    // An asset is its file or a 404: the page in its place would be taken for a script and show a white screen.
    app.use('/assets', express.static(path.join(ui, 'assets'), { index: false, maxAge: '1h', fallthrough: false }));
    app.use(express.static(ui, { index: false, maxAge: '1h' }));
    // The SPA handles its own routes. A path whose last segment names a file (`…/index-abc.js`,
    // asked for by an out-of-date page) is not one of them: it gets a 404, not the page.
    app.get(/^\/(?!api\/)(?:.*\/)?[^/.]*$/, (_req, res) => res.sendFile(path.join(ui, 'index.html')));
  }
  app.use((req, _res, next) => next(new NotFoundError(`No route ${req.method} ${req.path}`)));
  app.use(errorHandler(ctx.log));
  return app;
}
