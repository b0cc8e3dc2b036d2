/**
 * The `app.asar.unpacked` twin of a file URL (or path) inside a packaged app's `app.asar`; any
 * other location is returned unchanged (development, tests, the headless server).
 *
 * Worker threads and the circuit artifacts are unpacked (electron-builder `asarUnpack`), so a
 * worker runs as a plain file and resolves its packages from `app.asar.unpacked/node_modules` —
 * it never depends on Electron's asar support inside worker threads. The desktop build
 * (electron.vite.config.ts) routes every `new URL('…', import.meta.url)` of server code through
 * this function.
 */
export function asarUnpackedUrl(url: string): string {
  return url.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
