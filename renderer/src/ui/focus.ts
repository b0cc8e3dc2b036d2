import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

const TABBABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
].join(',');

/** The elements inside `root` that Tab reaches, in order (visible, enabled, tabindex ≥ 0). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && !el.closest('[inert]') && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
}

interface Trap {
  root: RefObject<HTMLElement | null>;
  onEscape: RefObject<(() => void) | undefined>;
}

/** Open traps, innermost last: only the innermost handles Tab and Escape (a dialog opened from a dialog). */
const stack: Trap[] = [];

function onKeyDown(e: KeyboardEvent) {
  const top = stack.at(-1);
  const root = top?.root.current;
  if (!top || !root) return;
  if (e.key === 'Escape' && top.onEscape.current) {
    e.preventDefault();
    top.onEscape.current();
    return;
  }
  if (e.key !== 'Tab') return;
  const items = tabbables(root);
  if (items.length === 0) {
    e.preventDefault();
    root.focus();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement as HTMLElement | null;
  const inside = active !== null && root.contains(active);
  if (!inside) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  } else if (e.shiftKey && (active === first || active === root)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

/** Focus that lands outside the innermost trap (a click on the page behind it, a script) is brought back. */
function onFocusIn(e: FocusEvent) {
  const root = stack.at(-1)?.root.current;
  const target = e.target as Node | null;
  if (!root || !target || root.contains(target)) return;
  // Another trap's element (a lower dialog's own focus restore during close) is left alone.
  if (stack.some((t) => t.root.current?.contains(target))) return;
  (tabbables(root)[0] ?? root).focus();
}

/**
 * Keeps keyboard focus inside `root` while `active`: Tab and Shift+Tab cycle through its controls,
 * Escape calls `onEscape`. On activation, focus moves to `initialFocus()` (else the first control);
 * on deactivation it returns to the element that had it before (the opener), or to `returnTo()`
 * when that gives an element (e.g. the page's main content after a navigation).
 */
export function useFocusTrap(
  root: RefObject<HTMLElement | null>,
  active: boolean,
  options: { onEscape?: () => void; initialFocus?: () => HTMLElement | null | undefined; returnTo?: () => HTMLElement | null | undefined } = {},
) {
  const onEscape = useRef(options.onEscape);
  const initialFocus = useRef(options.initialFocus);
  const returnTo = useRef(options.returnTo);
  // Layout effect: fresh before the trap's own (passive) cleanup reads `returnTo` on deactivation.
  useLayoutEffect(() => {
    onEscape.current = options.onEscape;
    initialFocus.current = options.initialFocus;
    returnTo.current = options.returnTo;
  });
  useEffect(() => {
    if (!active) return;
    const opener = document.activeElement as HTMLElement | null;
    const trap: Trap = { root, onEscape };
    if (stack.length === 0) {
      document.addEventListener('keydown', onKeyDown);
      document.addEventListener('focusin', onFocusIn);
    }
    stack.push(trap);
    const el = root.current;
    if (el && !el.contains(document.activeElement)) (initialFocus.current?.() ?? tabbables(el)[0] ?? el).focus();
    return () => {
      stack.splice(stack.indexOf(trap), 1);
      if (stack.length === 0) {
        document.removeEventListener('keydown', onKeyDown);
        document.removeEventListener('focusin', onFocusIn);
      }
      const target = returnTo.current?.() ?? (opener && opener.isConnected && opener !== document.body ? opener : document.getElementById('main-content'));
      target?.focus({ preventScroll: true });
    };
  }, [active, root]);
}
