/**
 * The promise cached under `key`, made by `make` on first use. One that fails is forgotten, so
 * the next call tries again (a chain node down at first use must not poison the cache).
 */
export function cachedPromise<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}
