import type { Logger } from 'pino';
import type { Clock } from '../context.js';
import type { HostedStore } from './store.js';

/** The hosted instance's dependency bag. */
export interface HostedContext {
  store: HostedStore;
  clock: Clock;
  ids: { next(): string };
  log: Logger;
  /** Aborted when the instance closes: long-polls end at once. */
  closing: AbortSignal;
}

export const serverTime = (h: Pick<HostedContext, 'clock'>) => h.clock.now().toISOString();
