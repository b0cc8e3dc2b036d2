import { createContext, useContext, useEffect } from 'react';

/** Set by the app frame: a page's own title part (e.g. "Trial balance"), or null for the area's. */
export const PageTitleContext = createContext<(title: string | null) => void>(() => {});

/**
 * Refines the document title of the current page: "<title> · <area> · <entity> · Bureau". The app
 * frame sets "<area> · <entity> · Bureau" from the route by itself; call this only for a view
 * within an area (a tab, one ticket).
 */
export function usePageTitle(title: string | null | undefined) {
  const set = useContext(PageTitleContext);
  useEffect(() => {
    if (!title) return;
    set(title);
    return () => set(null);
  }, [title, set]);
}

/** The document title: the most specific part first, "Bureau" last. */
export function documentTitle(...parts: (string | null | undefined)[]): string {
  return [...parts.filter((p): p is string => Boolean(p)), 'Bureau'].join(' · ');
}
