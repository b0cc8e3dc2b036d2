// Which peer's X-Forwarded-For names the client, the key of every per-IP rate limit. Off by
// default: the socket's address is the client, so a header a client sends itself changes nothing
// (a proxy on the same host that passes the header through would otherwise let every client
// choose its own address). An operator behind a reverse proxy names it with `--trust-proxy`.
import express from 'express';

/** An operator's `--trust-proxy`: `loopback`, addresses or CIDR ranges (comma-separated), a hop count, `true`/`false`. */
export type TrustProxySpec = string | boolean;

const EXPECTED = 'expected loopback, linklocal, uniquelocal, IP addresses or CIDR ranges (comma-separated), a number of proxies, true or false';

/**
 * Express's `trust proxy` value for a spec. Digits are a hop count (Express would read a string
 * "1" as the address 0.0.0.1); anything Express cannot compile throws, with the spec and what
 * was expected, so a typo stops the start instead of trusting nobody or everybody.
 */
export function trustProxySetting(spec: TrustProxySpec | undefined): boolean | number | string {
  if (spec === undefined || typeof spec === 'boolean') return spec ?? false;
  const value = spec.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  try {
    // Express compiles the list when it is set: the same parser as the app that will use it.
    express().set('trust proxy', value);
  } catch (err) {
    throw new Error(`--trust-proxy ${JSON.stringify(spec)}: ${err instanceof Error ? err.message : String(err)}; ${EXPECTED}`);
  }
  return value;
}
