import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { rendererConfig } from './renderer/vite.config';

/**
 * Worker-thread entry files that server code loads by URL next to itself
 * (`new URL('./x.mjs', import.meta.url)`): in the app they must sit next to the main bundle.
 */
export const workerEntryFiles = ['server/privacy/prover-worker.mjs', 'server/documents/seal-worker.mjs'];

function copyWorkerEntries(files: string[]): Plugin {
  return {
    name: 'bureau:worker-entries',
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: basename(file), source: readFileSync(resolve(file), 'utf8') });
    },
  };
}

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin(), copyWorkerEntries(workerEntryFiles)],
    build: { outDir: 'out/main', rollupOptions: { input: { index: resolve('main/index.ts') } } },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    // Sandboxed preloads must be CommonJS.
    build: { outDir: 'out/preload', rollupOptions: { input: { index: resolve('main/preload.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    ...rendererConfig,
    build: { ...rendererConfig.build, rollupOptions: { input: resolve('renderer/index.html') } },
  },
});
