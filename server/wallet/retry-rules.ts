// Which failed transfers Try again may send again. Not one whose notes were spent (it may have
// gone through after all: sending again could pay twice), nor one a reorganisation undid (the
// chain may include it again).
import { REORG_UNDONE } from './chain-reorg.js';

/** A proved bundle not relayed for this long is stuck (the page was closed mid-way): offer Try again. */
export const STUCK_PROVED_MS = 2 * 60_000;

const NOT_RETRYABLE = new Set([REORG_UNDONE, 'Its notes were spent by another transaction', 'Replaced by a later attempt of the same transfer, which went through', 'Spent nullifier']);

export function retryableFailure(error: string | null): boolean {
  return error === null || !NOT_RETRYABLE.has(error);
}
