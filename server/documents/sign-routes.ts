import { z } from 'zod';
import type { Context } from '../context.js';
import { route, type RouteDef } from '../http/route.js';
import { limiterFor, withLimit, type RateLimitRule } from '../http/rate-limit.js';
import { signBody, signingViewSchema, tokenParams } from './request-schemas.js';
import { signerDocument, submitSigning, UnknownSigningLinkError, viewAsSigner } from './signing.js';
import { sendPdf } from './send-pdf.js';

const tags = ['Signing (public)'];

/**
 * Signing tokens are 256-bit, so guessing one is hopeless; still, a client that keeps presenting
 * unknown links is probing, and (as sign-in throttling does for passwords) it is stopped: after 20
 * unknown links within 15 minutes, every signing-link request from that IP answers 429 until the
 * oldest miss ages out. A signer following their own link never misses.
 */
export const UNKNOWN_LINK_RATE: RateLimitRule = { limit: 20, windowMs: 15 * 60_000, message: 'Too many unknown signing links from this address; try again later' };

const note =
  "Public: the unguessable signing token in the path is the credential (stored only as a SHA-256 hash). It gives access to this one signer's view of this one request and nothing else. " +
  'After 20 unknown links from one client IP within 15 minutes, signing-link requests from that IP answer 429 with Retry-After.';
/** `?inPerson=true`: the signer signs on the host's device (the host's session cookie comes along). */
const signingQuery = z.object({
  inPerson: z
    .enum(['true', 'false'])
    .optional()
    .meta({
      description:
        'true when a signed-in member hosts the signing on their device ("Sign in person"): the host must be a member who may send signature requests (401 signed out, 403 otherwise); opening does not mark the signer viewed, and signing or declining records `inPerson` and `hostedBy` in the audit entry.',
    }),
});
const inPersonErrors = { 401: 'inPerson=true without a signed-in host', 403: 'inPerson=true and the host may not send signature requests or see this one' };

const limited = { 429: 'Too many unknown signing links from this IP (Retry-After header)' };

/** Runs a signing-link use case unless this IP is throttled; counts the miss if the link is unknown. */
function withLinkThrottle<T>(ctx: Context, ip: string, use: () => T | Promise<T>): Promise<T> {
  return withLimit(limiterFor(ctx, UNKNOWN_LINK_RATE), ip, (err) => err instanceof UnknownSigningLinkError, use);
}

export const signingRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/sign/{token}',
      summary: 'The request as this signer sees it',
      description: `${note} The signer's first open is recorded as \`viewed\` in the audit trail; a host's in-person open is not.`,
      tags,
      access: 'public',
      params: tokenParams,
      query: signingQuery,
      response: signingViewSchema,
      errors: { 404: 'Unknown signing link', ...inPersonErrors, ...limited },
    },
    ({ ctx, params, query, auth, ip, userAgent }) => withLinkThrottle(ctx, ip, () => viewAsSigner(ctx, params.token, { ip, userAgent }, { inPerson: query.inPerson === 'true', auth })),
  ),
  route(
    {
      method: 'post',
      path: '/api/sign/{token}',
      summary: 'Sign (fill your fields) or decline',
      description: `${note} When the last signer signs, the request completes: the sealed PDF is produced and everyone is e-mailed. 409 when the request is not sent, it is not this signer's turn (sequential order), or the signer has already acted.`,
      tags,
      access: 'public',
      params: tokenParams,
      query: signingQuery,
      body: signBody,
      response: signingViewSchema,
      errors: { 404: 'Unknown signing link', 409: 'Not allowed now', ...inPersonErrors, ...limited },
    },
    ({ ctx, params, query, body, auth, ip, userAgent }) => withLinkThrottle(ctx, ip, () => submitSigning(ctx, params.token, body, { ip, userAgent }, { inPerson: query.inPerson === 'true', auth })),
  ),
  route(
    {
      method: 'get',
      path: '/api/sign/{token}/document',
      summary: 'The PDF to sign (the sealed PDF once completed)',
      description: note,
      tags,
      access: 'public',
      params: tokenParams,
      produces: 'application/pdf',
      errors: { 404: 'Unknown signing link', ...limited },
    },
    ({ ctx, params, ip, res }) =>
      withLinkThrottle(ctx, ip, () => {
        const doc = signerDocument(ctx, params.token);
        sendPdf(res, doc.data, doc.name);
      }),
  ),
];
