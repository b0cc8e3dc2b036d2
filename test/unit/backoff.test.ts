import { describe, expect, it } from 'vitest';
import { backoffMs, jittered } from '../../server/backoff.js';
import { retryDelayMs, RETRY_DELAYS_MS } from '../../server/webhooks/schedule.js';
import { backoffMs as mailboxBackoff } from '../../server/helpdesk/mail-watch.js';

describe('the one backoff', () => {
  it('doubles from the base after each failure, up to the cap', () => {
    const b = { baseMs: 1000, maxMs: 300_000 };
    expect([1, 2, 3, 4, 9, 10, 50].map((n) => backoffMs(n, b))).toEqual([1000, 2000, 4000, 8000, 256_000, 300_000, 300_000]);
    // No failure yet (or a count that went wrong) waits the base, never less.
    expect(backoffMs(0, b)).toBe(1000);
    expect(backoffMs(-3, b)).toBe(1000);
  });

  it('spreads by a random factor in [low, high) when asked', () => {
    const b = { baseMs: 1000, maxMs: 300_000, jitter: [0.5, 1] as const };
    expect(backoffMs(3, b, () => 0)).toBe(2000);
    expect(backoffMs(3, b, () => 0.5)).toBe(3000);
    expect(backoffMs(3, b, () => 0.999)).toBeLessThan(4000);
    expect(jittered(10_000, [0.8, 1.2], () => 0)).toBe(8000);
    expect(jittered(10_000, [0.8, 1.2], () => 1)).toBe(12_000);
    for (let i = 0; i < 200; i++) {
      const d = backoffMs(20, b);
      expect(d).toBeGreaterThanOrEqual(150_000);
      expect(d).toBeLessThan(300_000);
    }
  });

  it('keeps the schedules built on it: webhooks (Svix, ±10 %) and the mailbox (30 s → 30 min)', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(RETRY_DELAYS_MS[0]);
    expect(retryDelayMs(2, () => 0)).toBe(270_000);
    expect(retryDelayMs(2, () => 1)).toBe(330_000);
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1)).toBeNull();
    expect([1, 2, 3, 7, 8].map(mailboxBackoff)).toEqual([30_000, 60_000, 120_000, 1_800_000, 1_800_000]);
  });
});
