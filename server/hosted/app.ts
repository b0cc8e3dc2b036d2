import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { errorHandler, NotFoundError } from '../http/errors.js';
import { securityHeaders } from '../http/guards.js';
import { isFatalStoreError, type HostedContext } from './context.js';
import { hostedRouter } from './routes.js';
import { signingRouter } from './signing-routes.js';
import { DEFAULT_LIMITS, type HostedLimits } from './limits.js';

/** The hosted instance's Express app: public by design (no loopback host guard), errors as `{error}`. */
export function createHostedApp(h: HostedContext, limits: HostedLimits = DEFAULT_LIMITS, pages: { rendererDir?: string; trustProxy?: string | boolean } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // The client IP (for rate limits) is the socket's, unless the operator names a proxy to trust.
  app.set('trust proxy', pages.trustProxy ?? false);
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
  app.use(errorHandler(h.log));
  return app;
}
