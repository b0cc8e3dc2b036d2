import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ForbiddenError } from './errors.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return host.split(':')[0].toLowerCase();
}

/** The Host check: only loopback names (and the configured ones) are answered. */
export function hostCheck(allowedHosts: string[]): (headers: IncomingHttpHeaders) => void {
  const allowed = new Set([...LOOPBACK, ...allowedHosts.map((h) => h.toLowerCase())]);
  return (headers) => {
    const host = headers.host;
    if (!host || !allowed.has(hostnameOf(host))) throw new ForbiddenError('Host not allowed');
  };
}

/** Rejects requests whose Host is not a loopback name: a DNS-rebinding page cannot reach us. */
export function hostGuard(allowedHosts: string[]): RequestHandler {
  const check = hostCheck(allowedHosts);
  return (req, _res, next) => {
    check(req.headers);
    next();
  };
}

/** A browser request from another origin is refused outright; we never send CORS headers. */
export function checkOrigin(headers: IncomingHttpHeaders, protocol: string): void {
  const origin = headers.origin;
  if (origin && origin !== `${protocol}://${headers.host}`) throw new ForbiddenError('Cross-origin request refused');
}

export function originGuard(): RequestHandler {
  return (req, _res, next) => {
    checkOrigin(req.headers, req.protocol);
    next();
  };
}

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'";

export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
}

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    setSecurityHeaders(res);
    next();
  };
}
