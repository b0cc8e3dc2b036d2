/**
 * Data loading with TanStack Query. Every key starts with the current entity, so switching
 * businesses never shows another one's cached data. Retries and refetch-on-focus are off:
 * the API is local and an error should show at once, as it did before.
 */
import { QueryClient, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { getCurrentEntity } from './http';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
    mutations: { retry: false },
  },
});

/** The key of entity data: `['entity', <entity id>, ...key]`. */
export function entityKey(...key: unknown[]): QueryKey {
  return keyOfEntity(getCurrentEntity(), ...key);
}

/** The key of a named entity's data (for what arrives for one entity, such as its live stream). */
export function keyOfEntity(entityId: string | null, ...key: unknown[]): QueryKey {
  return ['entity', entityId, ...key];
}

/**
 * The client sends the current entity with every call: a query of another one (due just as the
 * person switched) must not store this entity's answer under the other's key.
 */
function loadFor<T>(queryKey: QueryKey, load: () => Promise<T>): Promise<T> {
  if (queryKey[1] !== getCurrentEntity()) return Promise.reject(new Error('The business changed; reload to see it'));
  return load();
}

/** A query of the current entity's data (`useEntityQuery(['tickets', filters], () => unwrap(client.GET(…)))`). */
export function useEntityQuery<T>(key: unknown[], load: () => Promise<T>, options: Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'> = {}) {
  return useQuery({ queryKey: entityKey(...key), queryFn: ({ queryKey }) => loadFor(queryKey, load), ...options });
}

/** Refetches every query of the current entity under `key` (after a change). */
export function invalidateEntity(...key: unknown[]) {
  return queryClient.invalidateQueries({ queryKey: entityKey(...key) });
}

/** Puts what a call answered (a save, a live event) into the current entity's query under `key`. */
export function setEntityData<T>(key: unknown[], data: T | ((old: T | undefined) => T | undefined)) {
  queryClient.setQueryData<T>(entityKey(...key), data as never);
}
