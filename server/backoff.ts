/**
 * The one exponential backoff: how long to wait after `failures` failures in a row (1 → `baseMs`,
 * doubling, at most `maxMs`), optionally spread by a random factor in `jitter` ([low, high]) so
 * that many retries started together do not come back together. Fixed schedules (webhooks, after
 * Svix) spread their own steps with `jittered`.
 */
export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Multiply by a random factor in [low, high): `[0.8, 1.2]` is ±20 %; absent means none. */
  jitter?: readonly [low: number, high: number];
}

export function backoffMs(failures: number, b: Backoff, random: () => number = Math.random): number {
  const exponential = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, failures - 1));
  return b.jitter ? jittered(exponential, b.jitter, random) : exponential;
}

/** `ms` times a random factor in [low, high). */
export function jittered(ms: number, [low, high]: readonly [number, number], random: () => number = Math.random): number {
  return ms * (low + (high - low) * random());
}
