import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Shared by `npm run build:renderer` and electron.vite.config.ts. */
export const rendererConfig: UserConfig = {
  root: here,
  base: '/',
  plugins: [react()],
  build: { outDir: path.resolve(here, '../out/renderer'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://127.0.0.1:4680' } },
};

export default defineConfig(rendererConfig);
