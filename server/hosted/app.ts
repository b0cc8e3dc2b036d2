import express, { type Express } from 'express';
import { errorHandler, NotFoundError } from '../http/errors.js';
import { securityHeaders } from '../http/guards.js';
import type { HostedContext } from './context.js';
import { hostedRouter } from './routes.js';

/** The hosted instance's Express app: public by design (no loopback host guard), errors as `{error}`. */
export function createHostedApp(h: HostedContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy, the client IP (for rate limits) is the proxy's X-Forwarded-For.
  app.set('trust proxy', 'loopback');
  app.use(securityHeaders());
  app.use(hostedRouter(h));
  app.use((req, _res, next) => next(new NotFoundError(`No route ${req.method} ${req.path}`)));
  app.use(errorHandler(h.log));
  return app;
}
