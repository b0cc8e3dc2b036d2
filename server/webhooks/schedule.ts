import { jittered } from '../backoff.js';

/**
 * Svix's retry schedule: after the first attempt fails, retry after 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h — eight attempts over about 28 hours — each with ±10 % jitter.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint failing for this long (no success in between) is disabled, as Svix does. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** Delay before automatic attempt `autoAttempts + 1`, or null when no attempt is left. */
export function retryDelayMs(autoAttempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[autoAttempts - 1];
  if (base === undefined) return null;
  return Math.round(jittered(base, [0.9, 1.1], random));
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - now.getTime();
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
