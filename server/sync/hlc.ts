// Hybrid logical clock (Kulkarni et al.; as Actual Budget uses for per-column LWW).
// A stamp is `<wall ms, 13 digits>-<counter, 4 hex>-<node id>`: comparing two stamps as strings
// orders them by wall time, then counter, then node — a total order every replica agrees on.
import { invariant } from './invariant.js';

export interface HlcState {
  wallMs: number;
  counter: number;
  node: string;
}

const MAX_COUNTER = 0xffff;
const NODE = /^[0-9a-z]{8,32}$/;
const STAMP = /^(\d{13})-([0-9a-f]{4})-([0-9a-z]{8,32})$/;

/** Stamps more than this far ahead of the receiver's clock are refused (clock skew). */
export const MAX_DRIFT_MS = 10 * 60_000;

export class ClockSkewError extends Error {
  constructor(readonly aheadMs: number) {
    super(`Clock skew: a stamp is ${Math.round(aheadMs / 1000)} s ahead of this clock`);
  }
}

export function formatStamp(s: HlcState): string {
  invariant(NODE.test(s.node), 'hlc node id');
  invariant(s.counter >= 0 && s.counter <= MAX_COUNTER, 'hlc counter');
  return `${String(s.wallMs).padStart(13, '0')}-${s.counter.toString(16).padStart(4, '0')}-${s.node}`;
}

export function parseStamp(stamp: string): HlcState | null {
  const m = STAMP.exec(stamp);
  return m ? { wallMs: Number(m[1]), counter: parseInt(m[2], 16), node: m[3] } : null;
}

export function isStamp(stamp: string): boolean {
  return STAMP.test(stamp);
}

/** A local event: the next stamp after `last` at wall time `now`. */
export function tick(last: HlcState, now: number): HlcState {
  if (now > last.wallMs) return { wallMs: now, counter: 0, node: last.node };
  if (last.counter >= MAX_COUNTER) return { wallMs: last.wallMs + 1, counter: 0, node: last.node };
  return { wallMs: last.wallMs, counter: last.counter + 1, node: last.node };
}

/** Receiving `remote`: our next stamp is after both it and our own last one. */
export function receive(last: HlcState, remote: HlcState, now: number): HlcState {
  if (remote.wallMs - now > MAX_DRIFT_MS) throw new ClockSkewError(remote.wallMs - now);
  const wallMs = Math.max(last.wallMs, remote.wallMs, now);
  let counter: number;
  if (wallMs === last.wallMs && wallMs === remote.wallMs) counter = Math.max(last.counter, remote.counter) + 1;
  else if (wallMs === last.wallMs) counter = last.counter + 1;
  else if (wallMs === remote.wallMs) counter = remote.counter + 1;
  else counter = 0;
  if (counter > MAX_COUNTER) return { wallMs: wallMs + 1, counter: 0, node: last.node };
  return { wallMs, counter, node: last.node };
}
