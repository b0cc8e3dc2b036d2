// Sliding-window limits per key (a client IP): at most `limit` counted requests per `windowMs`.
// Over the limit answers 429 with Retry-After (seconds until the oldest counted request ages out).
// Kept in memory per server: a restart forgets the counts, which only ever errs towards allowing.
import type { Context } from '../context.js';
import { RateLimitedError } from './errors.js';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
  /** The `error` message of the 429. */
  message: string;
}

export interface RateLimiter {
  /** What it counts to, for documentation (the OpenAPI document states each route's limit). */
  readonly rule: RateLimitRule;
  /** Throws RateLimitedError when `key` is over the limit; counts nothing. */
  check(key: string): void;
  /** Counts one request from `key` (checked or not). */
  count(key: string): void;
  /** check, then count: every request counts. */
  hit(key: string): void;
  /**
   * check, then hold a place for a request whose outcome decides whether it counts (an
   * asynchronous use case): held places count towards the limit until settled, so concurrent
   * requests cannot all pass the check before any of them is counted.
   */
  reserve(key: string): Reservation;
}

export interface Reservation {
  /** Settles the place: `counted` makes it a counted request, otherwise it is given back. */
  settle(counted: boolean): void;
}

export function createRateLimiter(clock: Context['clock'], rule: RateLimitRule): RateLimiter {
  const hits = new Map<string, number[]>();
  const held = new Map<string, number>();
  let lastSweep = 0;
  const recentOf = (key: string, now: number) => {
    if (now - lastSweep > rule.windowMs) {
      for (const [k, times] of hits) if (times[times.length - 1] <= now - rule.windowMs) hits.delete(k);
      lastSweep = now;
    }
    const recent = (hits.get(key) ?? []).filter((t) => t > now - rule.windowMs);
    hits.set(key, recent);
    return recent;
  };
  const limiter: RateLimiter = {
    rule,
    check(key) {
      const now = clock.now().getTime();
      const recent = recentOf(key, now);
      // No counted request when held places alone (a burst still being checked) fill the limit: they may all count, for a whole window.
      if (recent.length + (held.get(key) ?? 0) >= rule.limit) throw new RateLimitedError(((recent[0] ?? now) + rule.windowMs - now) / 1000, rule.message);
    },
    count(key) {
      recentOf(key, clock.now().getTime()).push(clock.now().getTime());
    },
    hit(key) {
      limiter.check(key);
      limiter.count(key);
    },
    reserve(key) {
      limiter.check(key);
      held.set(key, (held.get(key) ?? 0) + 1);
      let settled = false;
      return {
        settle(counted) {
          if (settled) return;
          settled = true;
          const n = (held.get(key) ?? 1) - 1;
          if (n > 0) held.set(key, n);
          else held.delete(key);
          if (counted) limiter.count(key);
        },
      };
    },
  };
  return limiter;
}

/**
 * Runs `use` holding a place under `key`: refused at once when over the limit; afterwards the
 * place counts only if `counts(err)` says the failure was one the limit is about (a wrong
 * password, an unknown link), and is given back otherwise.
 */
export async function withLimit<T>(limiter: RateLimiter, key: string, counts: (err: unknown) => boolean, use: () => T | Promise<T>): Promise<T> {
  const place = limiter.reserve(key);
  let counted = false;
  try {
    return await use();
  } catch (err) {
    counted = counts(err);
    throw err;
  } finally {
    place.settle(counted);
  }
}

const limiters = new WeakMap<Context, Map<RateLimitRule, RateLimiter>>();

/** The server's limiter for `rule` (one per server, so tests' servers never share counts). */
export function limiterFor(ctx: Context, rule: RateLimitRule): RateLimiter {
  let byRule = limiters.get(ctx);
  if (!byRule) limiters.set(ctx, (byRule = new Map()));
  let limiter = byRule.get(rule);
  if (!limiter) byRule.set(rule, (limiter = createRateLimiter(ctx.clock, rule)));
  return limiter;
}
