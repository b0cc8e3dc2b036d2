// The hosted relay's HTTP surface: quotes, transfers and job progress, for anyone. Relay calls
// carry no device token or cookie, so nothing ties a bundle to an entity's sync identity; the
// client IP is only a rate-limit key in memory.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { createRateLimiter } from '../http/rate-limit.js';
import type { HostedContext } from './context.js';
import { endpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { requireRelayChain } from './relay-config.js';
import { createQuote, quoteQuery } from './relay-quote.js';
import { jobParams, presentJob, readJob } from './relay-jobs.js';
import { relayHostedTransfer, transferBody } from './relay-submit.js';
import { NOT_CONFIGURED } from '../wallet/chains.js';
import { ServiceUnavailableError } from '../http/errors.js';

/** A bundle is a few kilobytes (proof, four ciphertexts); anything far larger is not one. */
const MAX_BUNDLE_BYTES = 64 * 1024;

export function relayRouter(h: HostedContext, limits: HostedLimits): Router {
  const router = express.Router();
  const transfers = createRateLimiter(h.clock, limits.relay);
  const reads = createRateLimiter(h.clock, limits.relayStatus);
  // Spec section 8: every transfer request counts, valid or not — even one whose JSON does not parse.
  const countTransfer = (req: Request, _res: Response, next: NextFunction) => {
    transfers.hit(req.ip ?? '');
    next();
  };
  // An instance without chains has no relay: say so before judging the request.
  const configured = (_req: Request, _res: Response, next: NextFunction) => next(h.relay ? undefined : new ServiceUnavailableError(NOT_CONFIGURED));

  router.get(
    '/api/relay/quote',
    configured,
    endpoint(h, { access: 'public', limit: reads, query: quoteQuery }, ({ query }) => {
      const { relay, chain } = requireRelayChain(h.relay, query.chain);
      return createQuote(relay, chain, query.token, h.clock);
    }),
  );
  router.post(
    '/api/relay/transfer',
    countTransfer,
    configured,
    express.json({ limit: MAX_BUNDLE_BYTES }),
    endpoint(h, { access: 'public', body: transferBody }, ({ body }) => relayHostedTransfer(h, body)),
  );
  router.get(
    '/api/relay/jobs/:id',
    configured,
    endpoint(h, { access: 'public', limit: reads, params: jobParams }, async ({ params }) => presentJob(await readJob(h, params.id, h.relay?.chains))),
  );
  return router;
}
