// The hosted relay's HTTP surface: quotes, transfers and job progress, for anyone. Relay calls
// carry no device token or cookie, so nothing ties a bundle to an entity's sync identity; the
// client IP is only a rate-limit key in memory.
import express, { type NextFunction, type Request, type Response } from 'express';
import { createRateLimiter } from '../http/rate-limit.js';
import type { HostedContext } from './context.js';
import { endpoint, type HostedEndpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { requireRelayChain } from './relay-config.js';
import { createQuote, quoteQuery, quoteSchema } from './relay-quote.js';
import { jobParams, jobSchema, presentJob, readJob } from './relay-jobs.js';
import { relayHostedTransfer, transferBody, transferResponse } from './relay-submit.js';
import { NOT_CONFIGURED } from '../wallet/index.js';
import { ServiceUnavailableError } from '../http/errors.js';

/** A bundle is a few kilobytes (proof, four ciphertexts); anything far larger is not one. */
const MAX_BUNDLE_BYTES = 64 * 1024;

const tags = ['Relay (public)'];
const unconfigured = { 503: 'No chain is configured on this instance, or not the one named' };
const chainErrors = { 502: 'The chain RPC or the bundler failed or refused', ...unconfigured };

export function relayEndpoints(h: HostedContext, limits: HostedLimits): HostedEndpoint[] {
  const transfers = createRateLimiter(h.clock, limits.relay);
  const reads = createRateLimiter(h.clock, limits.relayStatus);
  // Spec section 8: every transfer request counts, valid or not — even one whose JSON does not parse.
  const countTransfer = (req: Request, _res: Response, next: NextFunction) => {
    transfers.hit(req.ip ?? '');
    next();
  };
  // An instance without chains has no relay: say so before judging the request.
  const configured = (_req: Request, _res: Response, next: NextFunction) => next(h.relay ? undefined : new ServiceUnavailableError(NOT_CONFIGURED));

  return [
    endpoint(
      h,
      { method: 'get', path: '/api/relay/quote', summary: "The hosted relayer's signed fee quote for one transfer on a chain", tags, access: 'public', before: [configured], limit: reads, query: quoteQuery, response: quoteSchema, errors: chainErrors },
      ({ query }) => {
        const { relay, chain } = requireRelayChain(h.relay, query.chain);
        return createQuote(relay, chain, query.token, h.clock);
      },
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/api/relay/transfer',
        summary: 'Submit a proved bundle through the hosted relayer (idempotent by its nullifiers)',
        description: `No device token or cookie: nothing ties a bundle to an entity. Rate limit: ${limits.relay.limit} per ${limits.relay.windowMs / 60_000} minute(s) per client IP, every request counted (even one whose JSON does not parse); 429 with Retry-After.`,
        tags,
        access: 'public',
        before: [countTransfer, configured, express.json({ limit: MAX_BUNDLE_BYTES })],
        maxBodyBytes: MAX_BUNDLE_BYTES,
        body: transferBody,
        response: transferResponse,
        errors: { 400: 'Bad input, a malformed bundle, an unknown or expired quote, a spent nullifier or an unknown root', 409: 'The same bundle is being submitted by another request', 429: 'Rate limited (Retry-After)', ...chainErrors },
      },
      ({ body }) => relayHostedTransfer(h, body),
    ),
    endpoint(
      h,
      { method: 'get', path: '/api/relay/jobs/{id}', summary: "A relayed transfer's progress", tags, access: 'public', before: [configured], limit: reads, params: jobParams, response: jobSchema, errors: { 404: 'Unknown relay job', ...chainErrors } },
      async ({ params }) => presentJob(await readJob(h, params.id, h.relay?.chains)),
    ),
  ];
}
