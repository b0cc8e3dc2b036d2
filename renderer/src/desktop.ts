// What the desktop window adds to the browser: the preload bridge `window.bureau` (main/preload.ts)
// — native notifications and links opened in the user's browser. The same
// UI runs in a plain browser (the headless server), where these fall back or do nothing.
import type { BureauBridge } from '../../main/preload';

function bridge(): BureauBridge | undefined {
  return (window as Window & { bureau?: BureauBridge }).bureau;
}

/** True inside the desktop app's window. */
export function inDesktopApp(): boolean {
  return bridge() !== undefined;
}

/** Opens an http(s) link outside the app: the user's browser on the desktop, a new tab elsewhere. */
export function openExternal(url: string): void {
  const desktop = bridge();
  if (desktop) void desktop.openExternal(url).catch(() => undefined);
  else window.open(url, '_blank', 'noopener');
}

/**
 * A native notification when the user is not looking at the window (another app has focus, or it
 * is minimised); while they are, the bell in the top bar is enough.
 */
export function notifyWhenAway(title: string, body: string | null): void {
  const desktop = bridge();
  if (!desktop || (document.visibilityState === 'visible' && document.hasFocus())) return;
  void desktop.notify(title, body ?? '').catch(() => undefined);
}
