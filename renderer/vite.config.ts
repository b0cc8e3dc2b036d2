import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Asset URLs are absolute (`/assets/…`): the UI is always served over HTTP — by the desktop's own
 * server, which the Electron window loads, and by the hosted instance's signing pages — at nested
 * paths (`/documents/requests/{id}`, `/sign/{token}`) where relative ones would point inside the
 * page's path and load nothing.
 */
const BASE = '/';

/**
 * electron-vite sets the renderer's base to './' in production builds (made for windows that load
 * file:// URLs); this plugin's `config` runs after its preset and puts ours back, so
 * `npm run build` and `npm run build:renderer` write the same URLs.
 */
function absoluteBase(): Plugin {
  return { name: 'bureau:absolute-base', config: () => ({ base: BASE }) };
}

/** Shared by `npm run build:renderer` and electron.vite.config.ts. */
export const rendererConfig: UserConfig = {
  root: here,
  base: BASE,
  plugins: [react(), absoluteBase()],
  build: { outDir: path.resolve(here, '../out/renderer'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://127.0.0.1:4680' } },
};

export default defineConfig(rendererConfig);
