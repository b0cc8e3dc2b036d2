import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { readFileSync } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { rendererConfig } from './renderer/vite.config';
import { workerEntryFiles } from './packaging/files';
import { startupPackageRoots } from './scripts/server-bundle.mjs';

export { workerEntryFiles };

function copyWorkerEntries(files: string[]): Plugin {
  return {
    name: 'bureau:worker-entries',
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: basename(file), source: readFileSync(resolve(file), 'utf8') });
    },
  };
}

const fileUrlPattern = /new URL\(\s*(['"][^'"]+['"])\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Server code finds its worker entries and the circuit artifacts with
 * `new URL('…', import.meta.url)`. In the packaged app those files are unpacked, so in the
 * desktop bundle every such URL is taken relative to the `app.asar.unpacked` twin of the bundle
 * (main/asar-paths.ts; unchanged outside an archive).
 */
export function unpackedFileUrls(): Plugin {
  const serverDir = resolve('server') + sep;
  const helper = resolve('main/asar-paths.ts');
  return {
    name: 'bureau:unpacked-file-urls',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(serverDir) || !fileUrlPattern.test(code)) return null;
      fileUrlPattern.lastIndex = 0;
      const rewritten = code.replace(fileUrlPattern, (_m, literal: string) => `new URL(${literal}, __bureauAsarUnpackedUrl(import.meta.url))`);
      return { code: `import { asarUnpackedUrl as __bureauAsarUnpackedUrl } from ${JSON.stringify(helper)};\n${rewritten}`, map: null };
    },
  };
}

export default defineConfig({
  main: {
    // The packages the server needs before its first answer are bundled, not loaded from
    // node_modules file by file: half the server's start (scripts/server-bundle.mjs, whose build
    // `npm start` and `npm run server` run, bundles the same ones).
    plugins: [unpackedFileUrls(), externalizeDepsPlugin({ exclude: startupPackageRoots }), copyWorkerEntries(workerEntryFiles)],
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
