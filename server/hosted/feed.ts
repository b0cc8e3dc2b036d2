// Wakes long-polling pulls when an entity's log grows, instead of each pull polling the database.
// In one process (PGlite) a push tells the feed directly; with several processes on one
// PostgreSQL each push also sends NOTIFY, and every process LISTENs and wakes its own pulls.
import { EventEmitter } from 'node:events';
import type { HostedStore } from './store.js';

const CHANNEL = 'bureau_sync_log';

export interface ChangeFeed {
  /** An entity's log grew (after the push committed). */
  changed(entityId: string): Promise<void>;
  /** Resolves when the entity's log grows, after `ms`, or when one of `signals` aborts — whichever is first. */
  wait(entityId: string, ms: number, signals: AbortSignal[]): Promise<void>;
  close(): Promise<void>;
}

export async function startChangeFeed(store: HostedStore): Promise<ChangeFeed> {
  const local = new EventEmitter();
  // Every waiting pull listens: thousands of devices are normal, not a leak.
  local.setMaxListeners(0);
  const unsubscribe = store.subscribe ? await store.subscribe(CHANNEL, (entityId) => local.emit(entityId)) : null;
  return {
    async changed(entityId) {
      local.emit(entityId);
      // Other processes hear it from PostgreSQL (this one too, a harmless second wake-up).
      if (store.notify) await store.notify(CHANNEL, entityId);
    },
    wait(entityId, ms, signals) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          local.off(entityId, done);
          for (const s of signals) s.removeEventListener('abort', done);
          resolve();
        };
        if (signals.some((s) => s.aborted)) return resolve();
        const timer = setTimeout(done, ms);
        local.on(entityId, done);
        for (const s of signals) s.addEventListener('abort', done, { once: true });
      });
    },
    async close() {
      local.removeAllListeners();
      await unsubscribe?.();
    },
  };
}
