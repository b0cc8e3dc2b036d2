import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two turns of the event loop: a request waits at most about this long for a backup's or export's step. */
export const SLICE_MS = 8;

/**
 * A pacer for work done on the API's thread a piece at a time: awaited after each piece, it lets
 * other requests run once the current slice has taken `SLICE_MS`.
 */
export function slices(ms = SLICE_MS): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < ms) return;
    await nextTurn();
    start = performance.now();
  };
}
