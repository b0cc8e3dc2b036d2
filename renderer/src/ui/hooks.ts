import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** Runs an action (a form submit, a button) with pending and error state. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setPending(true);
      setError(null);
      try {
        return await action(...args);
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error, setError };
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatRelative(iso: string | null | undefined): string {
  if (!iso) return '—';
  const diff = (Date.now() - new Date(iso).getTime()) / 1000;
  if (diff < 60) return 'just now';
  if (diff < 3600) return `${Math.floor(diff / 60)} min ago`;
  if (diff < 86400) return `${Math.floor(diff / 3600)} h ago`;
  return formatDateTime(iso);
}

/**
 * A page's filters and tabs kept in the URL's search params, so reload, Back and a shared link keep
 * them. `defaults` names the keys and their values when absent (a default is not written to the
 * URL). `update` changes several keys in one history entry; `replace` updates the entry in place
 * (for typing, where every keystroke should not become a Back step).
 */
export function useSearchState<K extends string>(defaults: Record<K, string>) {
  const [params, setParams] = useSearchParams();
  const keys = Object.keys(defaults) as K[];
  const state = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? defaults[k]])) as Record<K, string>;
  const defaultsRef = useRef(defaults);
  useEffect(() => {
    defaultsRef.current = defaults;
  });
  const update = useCallback(
    (patch: Partial<Record<K, string | number | null>>, options: { replace?: boolean } = {}) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch) as [K, string | number | null | undefined][]) {
            if (v === null || v === undefined || String(v) === defaultsRef.current[k]) next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: options.replace },
      ),
    [setParams],
  );
  return [state, update] as const;
}

/** One of `allowed`, else `fallback` (a value read from the URL may be anything). */
export function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** A positive whole page number from the URL, else 1. */
export function pageNumber(value: string): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
