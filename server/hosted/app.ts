import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { NotFoundError } from '../http/errors.js';
import { securityHeaders } from '../http/guards.js';
import { noStore } from '../http/cache.js';
import { isFatalStoreError, type HostedContext } from './context.js';
import { hostedRouter } from './routes.js';
import { signingRouter } from './signing-routes.js';
import { DEFAULT_LIMITS, type HostedLimits } from './limits.js';
import { homePage } from './home-page.js';
import { joinPage } from './join-page.js';
import { trustProxySetting, type TrustProxySpec } from './trust-proxy.js';
import { hostedErrorHandler, requestIds } from './request-log.js';

export interface HostedAppOptions {
  /** The built UI: its public signing screen is served at /sign/{token}. */
  rendererDir?: string;
  /** Whose X-Forwarded-For names the client (trust-proxy.ts); nobody's by default. */
  trustProxy?: TrustProxySpec;
}

/** The hosted instance's Express app: public by design (no loopback host guard), errors as `{error}`. */
export function createHostedApp(h: HostedContext, limits: HostedLimits = DEFAULT_LIMITS, opts: HostedAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // The client IP (for rate limits) is the socket's, or X-Forwarded-For from a proxy the operator trusts.
  app.set('trust proxy', trustProxySetting(opts.trustProxy));
  app.use(requestIds());
  app.use(securityHeaders());
  app.get('/', homePage(h));
  app.get('/join', joinPage(h));
  // Device tokens, tenant data, signers' names and e-mails: never kept in a browser's or proxy's cache.
  app.use(['/sync/v1', '/api'], noStore());
  app.use(hostedRouter(h, limits));
  app.use(signingRouter(opts));
  app.use((req, _res, next) => next(new NotFoundError(`No route ${req.method} ${req.path}`)));
  // Crash-only: a database that failed fatally is not served from; the process ends so a supervisor restarts it.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!isFatalStoreError(err)) return next(err);
    h.log.fatal({ err }, 'hosted database failed');
    if (!res.headersSent) res.status(503).json({ error: 'The hosted database failed; the instance is restarting' });
    h.onFatal(err);
  });
  app.use(hostedErrorHandler(h));
  return app;
}
