// electron-builder configuration for the desktop app.
//
// BUREAU_BUILD selects the kind of build:
//   release (default) — what users install: fuses locked down, native ABI mismatch is fatal.
//   test              — the same, but with Node's inspector CLI flags allowed, which Playwright's
//                       `_electron` needs to drive the packaged app (never publish these).
//   layout            — `npm run desktop:layout` here: a stub Electron folder (no binary can be
//                       downloaded), no fuses to flip, the ABI check only reports.
import type { AfterPackContext, Configuration } from 'electron-builder';
import { checkNativeAbis, formatAbiReport, pinnedElectronVersion } from './packaging/abi';
import { bundledOnlyPackages, hostedOnlyPackages, packageExclusions, unpackedResourceGlobs, workerEntryFiles, workerPackages } from './packaging/files';

type BuildKind = 'release' | 'test' | 'layout';
const kind = (process.env.BUREAU_BUILD ?? 'release') as BuildKind;
if (!['release', 'test', 'layout'].includes(kind)) throw new Error(`BUREAU_BUILD must be release, test or layout (got ${kind})`);

/** electron-updater's feed: this repository's GitHub releases (GITHUB_REPOSITORY is set in Actions). */
function publishConfig(): Configuration['publish'] {
  const repository = process.env.BUREAU_RELEASE_REPOSITORY ?? process.env.GITHUB_REPOSITORY;
  if (!repository) return null; // local builds have no update feed; the app then never checks
  const [owner, repo] = repository.split('/');
  return { provider: 'github', owner, repo, releaseType: 'release' };
}

/** Gate after packing: every unpacked `.node` must match the pinned Electron's module version. */
async function afterPack(context: AfterPackContext): Promise<void> {
  const report = checkNativeAbis(context.appOutDir, pinnedElectronVersion());
  console.log(formatAbiReport(report));
  if (report.ok) return;
  if (kind === 'layout') {
    console.log('  (expected in a layout build: native modules here are built for this machine\'s Node, not for Electron)');
    return;
  }
  throw new Error('Native modules are not built for the pinned Electron: run `npx electron-builder install-app-deps` before packaging');
}

const config: Configuration = {
  appId: 'app.bureau.desktop',
  productName: 'Bureau',
  copyright: 'Copyright © Bureau',
  directories: { output: 'dist', buildResources: 'build' },
  // An allowlist: the bundles, the SQL migrations and the circuit artifacts (plus package.json and
  // the production dependencies, which electron-builder adds itself, less what only the hosted
  // service uses). Nothing else from the repository — no sources, tests, data dirs or .env
  // files — can end up in the app.
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    'server/db/migrations/**',
    ...unpackedResourceGlobs,
    '!**/*.map',
    ...packageExclusions,
    ...hostedOnlyPackages().map((dir) => `!${dir}/**`),
    ...bundledOnlyPackages().map((dir) => `!${dir}/**`),
  ],
  asar: true,
  // Worker threads run as plain files with their packages beside them (see main/asar-paths.ts);
  // native addons cannot be loaded from inside an archive.
  asarUnpack: [
    ...workerEntryFiles.map((file) => `out/main/${file.split('/').pop()}`),
    ...unpackedResourceGlobs,
    ...workerPackages().map((dir) => `${dir}/**`),
    '**/*.node',
  ],
  // Never rebuild native modules as a side effect of packaging: the release workflow rebuilds
  // them for Electron in its own step and afterPack checks the result.
  npmRebuild: false,
  buildDependenciesFromSource: false,
  afterPack,
  electronFuses:
    kind === 'layout'
      ? null // a stub binary has no fuse wire to flip
      : {
          runAsNode: false,
          enableCookieEncryption: true,
          enableNodeOptionsEnvironmentVariable: false,
          enableNodeCliInspectArguments: kind === 'test',
          enableEmbeddedAsarIntegrityValidation: true,
          onlyLoadAppFromAsar: true,
        },
  // Releases must be signed: the workflow sets this for tags, where a missing certificate stops
  // the build instead of shipping an unsigned app.
  forceCodeSigning: process.env.BUREAU_REQUIRE_SIGNING === '1',
  publish: publishConfig(),
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    maintainer: 'Bureau <release@bureau.app>',
    synopsis: 'Local-first business platform',
  },
  mac: {
    target: ['dmg', 'zip'],
    category: 'public.app-category.business',
    hardenedRuntime: true,
    // Notarization reads APPLE_API_KEY / APPLE_API_KEY_ID / APPLE_API_ISSUER from the environment;
    // signing reads CSC_LINK / CSC_KEY_PASSWORD.
    notarize: Boolean(process.env.APPLE_API_KEY_ID),
  },
  win: { target: ['nsis'] }, // signing reads WIN_CSC_LINK / WIN_CSC_KEY_PASSWORD
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};

export default config;
