import type { RequestHandler } from 'express';
import { ForbiddenError } from './errors.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return host.split(':')[0].toLowerCase();
}

/** Rejects requests whose Host is not a loopback name: a DNS-rebinding page cannot reach us. */
export function hostGuard(allowedHosts: string[]): RequestHandler {
  const allowed = new Set([...LOOPBACK, ...allowedHosts.map((h) => h.toLowerCase())]);
  return (req, _res, next) => {
    const host = req.headers.host;
    if (!host || !allowed.has(hostnameOf(host))) return next(new ForbiddenError('Host not allowed'));
    next();
  };
}

/** A browser request from another origin is refused outright; we never send CORS headers. */
export function originGuard(): RequestHandler {
  return (req, _res, next) => {
    const origin = req.get('origin');
    if (origin && origin !== `${req.protocol}://${req.headers.host}`) return next(new ForbiddenError('Cross-origin request refused'));
    next();
  };
}

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'",
    );
    next();
  };
}
