// Public signing pages of the hosted instance: the same `/api/sign/{token}` routes and signing
// screen as a device serves, answered from the mirror. The token in the path is the credential;
// it reaches this one signer's view of this one request and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Router } from 'express';
import { setPdfHeaders, signBody, signingViewSchema, tokenParams, UnknownSigningLinkError } from '../documents/index.js';
import { createRateLimiter, withLimit } from '../http/rate-limit.js';
import { sendBlob } from './blob-http.js';
import type { HostedContext } from './context.js';
import { endpoint, type HostedEndpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { signerDocument, submitSigning, viewAsSigner } from './signing.js';

/** Room for a drawn signature per field (a PNG data URL of up to 300 KB) on a long form. */
const SIGN_BODY_BYTES = 2 * 1024 * 1024;

const tags = ['Signing (public)'];
const note =
  "Public: the unguessable signing token in the path is the credential (stored only as a SHA-256 hash). It reaches this one signer's view of this one request and nothing else. " +
  'After 20 unknown links from one client IP within 15 minutes, signing-link requests from that IP answer 429 with Retry-After.';
const linkErrors = { 404: 'Unknown signing link, or the document has not reached the hosted instance yet', 429: 'Too many signing-page requests, or unknown links, from this IP (Retry-After)' };

/** The JSON endpoints of the signing pages. */
export function signingEndpoints(h: HostedContext, limits: HostedLimits): HostedEndpoint[] {
  const pages = createRateLimiter(h.clock, limits.signingPage);
  const unknownLinks = createRateLimiter(h.clock, limits.unknownSigningLink);
  const client = (req: Request) => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
  /** After 20 unknown links from an IP in 15 minutes, every signing-link request from it answers 429. */
  const throttled = <T>(req: Request, use: () => Promise<T>) => withLimit(unknownLinks, req.ip ?? '', (err) => err instanceof UnknownSigningLinkError, use);
  const spec = { tags, access: 'public' as const, limit: pages, params: tokenParams };

  return [
    endpoint(
      h,
      { method: 'get', path: '/api/sign/{token}', summary: 'The request as this signer sees it', description: `${note} The signer's first open is recorded as \`viewed\` in the audit trail.`, ...spec, response: signingViewSchema, errors: linkErrors },
      ({ req, params }) => throttled(req, () => viewAsSigner(h, params.token, client(req))),
    ),
    endpoint(
      h,
      {
        method: 'post',
        path: '/api/sign/{token}',
        summary: 'Sign (fill your fields) or decline',
        description: `${note} The signer's actions sync down to the entity's devices as facts; an owner's device completes and seals the PDF.`,
        ...spec,
        before: [express.json({ limit: SIGN_BODY_BYTES })],
        maxBodyBytes: SIGN_BODY_BYTES,
        body: signBody,
        response: signingViewSchema,
        errors: { ...linkErrors, 409: "Not allowed now: the request is not sent, it is not this signer's turn, or the signer has already acted" },
      },
      ({ req, params, body }) => throttled(req, () => submitSigning(h, params.token, body, client(req))),
    ),
    endpoint(h, { method: 'get', path: '/api/sign/{token}/document', summary: 'The PDF to sign (the signed PDF once completed)', description: note, ...spec, produces: 'application/pdf', errors: linkErrors }, ({ req, res, params }) =>
      throttled(req, async () => {
        const doc = await signerDocument(h, params.token);
        setPdfHeaders(res, doc.blob.size, doc.name);
        await sendBlob(res, doc.blob, h.log);
      }),
    ),
  ];
}

/** The signing screen: the desktop's own UI, of which only the public signing route is served here. */
export function signingRouter(opts: { rendererDir?: string }): Router {
  const router = express.Router();
  const ui = opts.rendererDir;
  if (ui && fs.existsSync(path.join(ui, 'index.html'))) {
    router.use('/assets', express.static(path.join(ui, 'assets'), { index: false, maxAge: '1h', fallthrough: false }));
    router.get('/sign/:token', (_req, res) => res.sendFile(path.join(ui, 'index.html')));
  }
  return router;
}
