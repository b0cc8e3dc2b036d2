// This device's clock against the hosted instance's: every hosted answer carries its time, and
// stamps are made and compared in hosted time (so a clock that is wrong here neither loses every
// conflict nor refuses other devices' changes as "from the future"). The UI warns when they differ.
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { syncLinks } from './tables.js';

export interface ClockState {
  /** How far the hosted clock is ahead of this one (ms), as last measured; 0 when they agree. */
  clockOffsetMs: number;
  /** When it was measured, by this clock and by the monotonic one (a jump of this clock since voids it). */
  clockMeasuredAt: { wallMs: number; monoMs: number } | null;
}

/**
 * Only a real difference between the clocks moves this device's stamps: a measurement is off by
 * the answer's travel time (milliseconds), and that noise would reorder two writes made a moment
 * apart on clocks that agree.
 */
export const usableOffset = (offsetMs: number) => (Math.abs(offsetMs) >= 2_000 ? offsetMs : 0);

/** A jump of this clock bigger than this since the measurement (someone set it) voids the offset until the next answer. */
const JUMP_MS = 1_000;

/** Remembers how far the hosted clock is from this one. */
export function noteServerTime(ctx: Context, engine: ClockState, entityId: string, serverTime: string): void {
  const wallMs = ctx.clock.now().getTime();
  const offset = Date.parse(serverTime) - wallMs;
  if (!Number.isFinite(offset)) return;
  engine.clockOffsetMs = usableOffset(offset);
  engine.clockMeasuredAt = { wallMs, monoMs: performance.now() };
  ctx.db.update(syncLinks).set({ serverTimeOffsetMs: offset }).where(eq(syncLinks.entityId, entityId)).run();
}

/**
 * Now, in hosted time as far as it is known: this clock plus the measured offset — unless this
 * clock jumped since the measurement (it was set right, or wrong): a stale offset on top of a
 * corrected clock would stamp changes far in the future, which the hosted instance refuses.
 */
export function hostedNow(ctx: Context, engine: ClockState): number {
  const wallMs = ctx.clock.now().getTime();
  const at = engine.clockMeasuredAt;
  if (!at || engine.clockOffsetMs === 0) return wallMs;
  const jumped = Math.abs(wallMs - at.wallMs - (performance.now() - at.monoMs)) > JUMP_MS;
  return jumped ? wallMs : wallMs + engine.clockOffsetMs;
}
