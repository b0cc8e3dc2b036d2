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
  return ['entity', getCurrentEntity(), ...key];
}

/** A query of the current entity's data (`useEntityQuery(['tickets', filters], () => unwrap(client.GET(…)))`). */
export function useEntityQuery<T>(key: unknown[], load: () => Promise<T>, options: Omit<UseQueryOptions<T, Error, T, QueryKey>, 'queryKey' | 'queryFn'> = {}) {
  return useQuery({ queryKey: entityKey(...key), queryFn: load, ...options });
}

/** Refetches every query of the current entity under `key` (after a change). */
export function invalidateEntity(...key: unknown[]) {
  return queryClient.invalidateQueries({ queryKey: entityKey(...key) });
}
