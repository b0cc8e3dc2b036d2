import type { Context } from '../context.js';
import { limiterFor, type RateLimiter, type RateLimitRule } from '../http/rate-limit.js';

/** Spec section 8: POST /api/relay/transfer, 20 requests per minute per client IP. */
export const RELAY_RATE: RateLimitRule = { limit: 20, windowMs: 60_000, message: 'Too many relay requests; try again later' };

export function relayLimiter(ctx: Context): RateLimiter {
  return limiterFor(ctx, RELAY_RATE);
}
