// The server as plain JavaScript, shared by `npm start` (main/launch.mjs) and `npm run server`
// (scripts/server.mjs): neither compiles TypeScript when nothing changed since the last build.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const lockfile = path.join(root, 'package-lock.json');

/** Files under `dir` (recursively, skipping node_modules), absolute paths. */
export function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.parentPath.split(path.sep).includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * A fingerprint of files: their paths, sizes and modification times (any edit, addition or
 * removal changes it), and the checkout they are in — a build holds absolute paths (the UI,
 * migrations, workers), so a copied or moved checkout (`cp -a` keeps the times) builds its own.
 */
export function fingerprint(files, checkout = root) {
  const h = crypto.createHash('sha256');
  h.update(`${path.resolve(checkout)}\0`);
  for (const f of [...new Set(files)].sort()) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    h.update(`${path.relative(checkout, f)}\0${st ? `${st.size}:${st.mtimeMs}` : '-'}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * The packages the server loads before it answers its first request (the static imports of
 * server/cli.ts, transitively), less pino (its transports find worker files by path) and the
 * native better-sqlite3. Bundled into the server instead of loaded from node_modules: Node 20
 * resolves, reads, compiles and links every module file on its own (zod and drizzle-orm are a
 * hundred files each, express about sixty packages), which was most of the start; one bundle
 * loads in about half the time. Everything loaded on first use (viem, imapflow, pdf-lib, …)
 * stays in node_modules, so a build stays quick. The desktop's main bundle
 * (electron.vite.config.ts) bundles the same packages.
 */
export const startupPackageRoots = ['zod', 'zod-openapi', 'drizzle-orm', 'uuid', 'express', 'standardwebhooks', 'busboy', '@noble/hashes', 'safe-stable-stringify'];

/** `startupPackageRoots` and their dependencies, transitively (names as in node_modules). */
export function startupPackages() {
  const seen = new Set();
  const visit = (name, fromDir) => {
    let dir = fromDir;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) {
        if (seen.has(name)) return;
        seen.add(name);
        const pkg = JSON.parse(fs.readFileSync(path.join(candidate, 'package.json'), 'utf8'));
        for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, candidate);
        return;
      }
      if (dir === root || path.dirname(dir) === dir) return;
      dir = path.dirname(dir);
    }
  };
  for (const name of startupPackageRoots) visit(name, root);
  return [...seen].sort();
}

/** Where the build of the server's current sources is (or goes). */
function serverBuild() {
  const sources = fingerprint([...filesUnder(path.join(root, 'server')), lockfile, fileURLToPath(import.meta.url)]);
  const buildsDir = path.join(root, 'out', 'server');
  const dir = path.join(buildsDir, sources);
  return { sources, buildsDir, dir, entry: path.join(dir, 'cli.mjs') };
}

/** The entry of the build of the server's current sources, or null when there is none yet (cheap: no build). */
export function currentServerBundle() {
  const { entry } = serverBuild();
  return fs.existsSync(entry) ? entry : null;
}

/**
 * server/cli.ts bundled by Vite (Rollup, as the desktop's main bundle is; lazily imported modules
 * become chunks that load on first use, and the packages they use stay in node_modules) into
 * out/server/<fingerprint of its sources>/, built only when a source changed. Each module keeps
 * its own `import.meta.url`, so the files it finds beside it (workers, migrations, circuit
 * artifacts, fonts) are the same as under tsx. A build a running server may still load chunks
 * from is never overwritten; builds beyond the last three are removed. Returns the entry file,
 * or null (run under tsx) when the build fails. `log` gets what it does (building, or not).
 */
export async function serverBundle({ log = console.log } = {}) {
  const { sources, buildsDir, dir, entry } = serverBuild();
  if (fs.existsSync(entry)) {
    log('The server is unchanged since its last build (out/server); not rebuilding it.');
    return entry;
  }
  log('Building the server (its sources changed)…');
  const started = performance.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  const ownImportMetaUrl = {
    name: 'bureau:own-import-meta-url',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('import.meta.url')) return null;
      return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id.split('?')[0]).href)), map: null };
    },
  };
  try {
    const { build } = await import('vite');
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      mode: 'production',
      plugins: [ownImportMetaUrl],
      ssr: { target: 'node', noExternal: startupPackages() },
      build: {
        ssr: path.join(root, 'server', 'cli.ts'),
        outDir: tmp,
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: true,
        reportCompressedSize: false,
        rollupOptions: {
          // Maps without the sources' text (they are in the repository): with source maps on, Node
          // reads every map at load; without the bundled packages' text that costs ~25 ms, not ~40.
          output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs', sourcemapExcludeSources: true },
          // Bundled packages' comments Rollup cannot place (zod's, ox's) are dropped: nothing to act on.
          onwarn(warning, warn) {
            if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
          },
        },
      },
    });
    // Packages resolve from the repository's node_modules (out/server/<build>/ → ../../../node_modules).
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (fs.existsSync(entry)) return entry; // another launcher built the same sources meanwhile
    console.warn(`Could not build the server (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); running it under tsx.`);
    return null;
  }
  log(`Built the server in ${Math.round(performance.now() - started)} ms.`);
  const older = fs
    .readdirSync(buildsDir)
    .filter((d) => d !== sources && !d.includes('.tmp-') && !d.endsWith('.building'))
    .map((d) => ({ d, t: fs.statSync(path.join(buildsDir, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of older.slice(2)) fs.rmSync(path.join(buildsDir, d), { recursive: true, force: true });
  return entry;
}

/**
 * Builds the server's current sources in a detached process of its own (not a member of the
 * caller's process group: stopping the caller leaves the build to finish), unless one is already
 * doing so. The caller goes on without waiting for it.
 */
export function buildInBackground() {
  const { dir } = serverBuild();
  const lock = `${dir}.building`;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    process.kill(pid, 0); // throws when no such process
    if (Date.now() - fs.statSync(lock).mtimeMs < 5 * 60_000) return; // being built
  } catch {
    // no build under way
  }
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--lock', lock], { cwd: root, detached: true, stdio: 'ignore' });
  fs.writeFileSync(lock, String(child.pid));
  child.unref();
}

// `node scripts/server-bundle.mjs [--lock FILE]`: builds the server if its sources changed (exit
// status 1 when the build failed), then removes FILE.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lock = process.argv[2] === '--lock' ? process.argv[3] : null;
  try {
    process.exitCode = (await serverBundle()) ? 0 : 1;
  } finally {
    if (lock) fs.rmSync(lock, { force: true });
  }
}
