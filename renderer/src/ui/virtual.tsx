/**
 * Long tables render only the rows in view (issue 30: the UI stays light). The page scrolls as a
 * whole, so rows are virtualised against the window; spacer rows keep the scroll height. Lists up
 * to `threshold` rows render every row as before, so short lists keep their exact DOM.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';

export function useVirtualRows(count: number, { estimate = 52, threshold = 100 }: { estimate?: number; threshold?: number } = {}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [offset, setOffset] = useState(0);
  const enabled = count > threshold;
  // Where the table starts on the page: the virtualiser counts from the top of the window.
  useLayoutEffect(() => {
    if (enabled && body.current) setOffset(body.current.getBoundingClientRect().top + window.scrollY);
  }, [enabled]);
  const virtualizer = useWindowVirtualizer({ count: enabled ? count : 0, estimateSize: () => estimate, overscan: 12, scrollMargin: offset });
  if (!enabled) return { body, indexes: Array.from({ length: count }, (_, i) => i), before: 0, after: 0, measure: undefined };
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    body,
    indexes: items.map((i) => i.index),
    before: first ? first.start - offset : 0,
    after: last ? virtualizer.getTotalSize() - (last.end - offset) : 0,
    measure: virtualizer.measureElement,
  };
}

/** The space of rows not rendered (above or below the visible ones). */
export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columns} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}
