import { useCallback, useEffect, useState } from 'react';
import { syncApi } from './sync-api';
import type { SyncStatus } from './types';

const EVENT = 'bureau:sync-status';
type Published = { entityId: string; status: SyncStatus };

/** Tells every `useSyncStatus` of the entity (the top-bar pill, the settings page) about a fresh status. */
export function publishSyncStatus(entityId: string, status: SyncStatus) {
  window.dispatchEvent(new CustomEvent<Published>(EVENT, { detail: { entityId, status } }));
}

/** While a cycle runs, its "n of m" is worth following closely. */
const WHILE_SYNCING_MS = 1_000;

/** The entity's sync status, polled every `everyMs` (every second while syncing) and kept in step with `publishSyncStatus`. */
export function useSyncStatus(entityId: string | null | undefined, everyMs = 10_000) {
  const [current, setCurrent] = useState<(Published & { error: string | null }) | null>(null);
  const load = useCallback(async () => {
    if (!entityId) return;
    try {
      const status = await syncApi.status(entityId);
      setCurrent({ entityId, status, error: null });
    } catch (err) {
      setCurrent((c) => ({ entityId, status: c?.entityId === entityId ? c.status : { linked: false, state: 'unlinked' }, error: err instanceof Error ? err.message : String(err) }));
    }
  }, [entityId]);
  const syncing = current !== null && current.entityId === entityId && current.status.linked && current.status.state === 'syncing';
  const interval = syncing ? Math.min(everyMs, WHILE_SYNCING_MS) : everyMs;
  useEffect(() => {
    if (!entityId) return;
    void load();
    const timer = setInterval(() => void load(), interval);
    const onPublished = (e: Event) => {
      const d = (e as CustomEvent<Published>).detail;
      if (d.entityId === entityId) setCurrent({ ...d, error: null });
    };
    window.addEventListener(EVENT, onPublished);
    return () => {
      clearInterval(timer);
      window.removeEventListener(EVENT, onPublished);
    };
  }, [entityId, interval, load]);
  const mine = current && current.entityId === entityId ? current : null;
  return { status: mine?.status ?? null, error: mine?.error ?? null, reload: load };
}
