import { useQuery } from '@tanstack/react-query';
import { keyOfEntity, queryClient, useEntityQuery } from '../../api';
import { syncApi } from './sync-api';
import type { SyncStatus } from './types';

const statusKey = (entityId: string | null | undefined) => keyOfEntity(entityId ?? null, 'sync', 'status');

/** Tells every `useSyncStatus` of the entity (the top-bar pill, the settings page) about a fresh status. */
export function publishSyncStatus(entityId: string, status: SyncStatus) {
  queryClient.setQueryData(statusKey(entityId), status);
}

/** While a cycle runs, its "n of m" is worth following closely. */
const WHILE_SYNCING_MS = 1_000;

/**
 * The entity's sync status, polled every `everyMs` (every second while syncing; `false`: read once)
 * and kept in step with `publishSyncStatus`.
 */
export function useSyncStatus(entityId: string | null | undefined, everyMs: number | false = 10_000) {
  const query = useQuery({
    queryKey: statusKey(entityId),
    queryFn: () => syncApi.status(entityId!),
    enabled: !!entityId,
    refetchInterval: (q) => {
      if (everyMs === false) return false;
      const s = q.state.data;
      return s?.linked && s.state === 'syncing' ? Math.min(everyMs, WHILE_SYNCING_MS) : everyMs;
    },
    // The pill follows sync while the window is in the background too.
    refetchIntervalInBackground: true,
  });
  return { status: query.data ?? null, error: query.error?.message ?? null, reload: query.refetch };
}

/** The entity's devices on the hosted instance (only owners and admins may list them). */
export function useDevices(entityId: string, options: { enabled?: boolean } = {}) {
  return useEntityQuery(['sync', 'devices'], () => syncApi.devices(entityId), options);
}
