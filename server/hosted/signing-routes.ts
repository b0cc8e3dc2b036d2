// Public signing pages of the hosted instance: the same `/api/sign/{token}` routes and signing
// screen as a device serves, answered from the mirror. The token in the path is the credential;
// it reaches this one signer's view of this one request and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Router } from 'express';
import { signBody, tokenParams } from '../documents/request-schemas.js';
import { setPdfHeaders } from '../documents/send-pdf.js';
import { UnknownSigningLinkError } from '../documents/signing.js';
import { createRateLimiter, withLimit } from '../http/rate-limit.js';
import { sendBlob } from './blob-http.js';
import type { HostedContext } from './context.js';
import { endpoint } from './endpoint.js';
import type { HostedLimits } from './limits.js';
import { signerDocument, submitSigning, viewAsSigner } from './signing.js';

/** Room for a drawn signature per field (a PNG data URL of up to 300 KB) on a long form. */
const SIGN_BODY_LIMIT = '2mb';

export function signingRouter(h: HostedContext, limits: HostedLimits, opts: { rendererDir?: string }): Router {
  const router = express.Router();
  const pages = createRateLimiter(h.clock, limits.signingPage);
  const unknownLinks = createRateLimiter(h.clock, limits.unknownSigningLink);
  const client = (req: Request) => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
  /** After 20 unknown links from an IP in 15 minutes, every signing-link request from it answers 429. */
  const throttled = <T>(req: Request, use: () => Promise<T>) => withLimit(unknownLinks, req.ip ?? '', (err) => err instanceof UnknownSigningLinkError, use);
  const spec = { access: 'public' as const, limit: pages, params: tokenParams };

  router.get('/api/sign/:token', endpoint(h, spec, ({ req, params }) => throttled(req, () => viewAsSigner(h, params.token, client(req)))));
  router.post(
    '/api/sign/:token',
    express.json({ limit: SIGN_BODY_LIMIT }),
    endpoint(h, { ...spec, body: signBody }, ({ req, params, body }) => throttled(req, () => submitSigning(h, params.token, body, client(req)))),
  );
  router.get(
    '/api/sign/:token/document',
    endpoint(h, spec, ({ req, res, params }) =>
      throttled(req, async () => {
        const doc = await signerDocument(h, params.token);
        setPdfHeaders(res, doc.blob.size, doc.name);
        await sendBlob(res, doc.blob, h.log);
      }),
    ),
  );

  // The signing screen is the desktop's own UI; only its public signing route is served here.
  const ui = opts.rendererDir;
  if (ui && fs.existsSync(path.join(ui, 'index.html'))) {
    router.use('/assets', express.static(path.join(ui, 'assets'), { index: false, maxAge: '1h', fallthrough: false }));
    router.get('/sign/:token', (_req, res) => res.sendFile(path.join(ui, 'index.html')));
  }
  return router;
}
