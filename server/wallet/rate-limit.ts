// A per-client-IP limit for the anonymous relay: at most `limit` requests per sliding window of
// `windowMs`. Exceeding it answers 429 with Retry-After (seconds until the oldest request ages out).
import type { Context } from '../context.js';
import { RateLimitedError } from '../http/errors.js';

export interface RateLimiter {
  /** Counts one request from `key`; throws RateLimitedError when over the limit. */
  hit(key: string): void;
}

export function createRateLimiter(clock: Context['clock'], limit: number, windowMs: number): RateLimiter {
  const hits = new Map<string, number[]>();
  let lastSweep = 0;
  return {
    hit(key) {
      const now = clock.now().getTime();
      if (now - lastSweep > windowMs) {
        for (const [k, times] of hits) if (times[times.length - 1] <= now - windowMs) hits.delete(k);
        lastSweep = now;
      }
      const recent = (hits.get(key) ?? []).filter((t) => t > now - windowMs);
      if (recent.length >= limit) {
        hits.set(key, recent);
        throw new RateLimitedError((recent[0] + windowMs - now) / 1000, 'Too many relay requests; try again later');
      }
      recent.push(now);
      hits.set(key, recent);
    },
  };
}

export const RELAY_LIMIT = 20;
export const RELAY_WINDOW_MS = 60_000;

const relayLimiters = new WeakMap<Context, RateLimiter>();

/** Spec section 8: POST /api/relay/transfer, 20 requests per minute per client IP. */
export function relayLimiter(ctx: Context): RateLimiter {
  let limiter = relayLimiters.get(ctx);
  if (!limiter) relayLimiters.set(ctx, (limiter = createRateLimiter(ctx.clock, RELAY_LIMIT, RELAY_WINDOW_MS)));
  return limiter;
}
