import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { NotFoundError } from '../http/errors.js';
import { securityHeaders } from '../http/guards.js';
import { isFatalStoreError, type HostedContext } from './context.js';
import { hostedRouter } from './routes.js';
import { signingRouter } from './signing-routes.js';
import { DEFAULT_LIMITS, type HostedLimits } from './limits.js';
import { hostedErrorHandler, requestIds } from './request-log.js';

/** The hosted instance's Express app: public by design (no loopback host guard), errors as `{error}`. */
export function createHostedApp(h: HostedContext, limits: HostedLimits = DEFAULT_LIMITS, pages: { rendererDir?: string } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy, the client IP (for rate limits) is the proxy's X-Forwarded-For.
  app.set('trust proxy', 'loopback');
  app.use(requestIds());
  app.use(securityHeaders());
  app.use(hostedRouter(h, limits));
  app.use(signingRouter(h, limits, pages));
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
