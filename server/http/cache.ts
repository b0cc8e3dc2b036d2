import type { RequestHandler } from 'express';

/**
 * `Cache-Control: no-store` on every answer below it: answers that carry a token or someone's
 * data (a signer's name and e-mail, a device token) must not stay in a browser's or a shared
 * proxy's cache. A route with its own policy (a content-addressed file) sets its header later,
 * which replaces this one.
 */
export function noStore(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
