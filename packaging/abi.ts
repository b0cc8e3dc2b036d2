// ABI check for native modules: every `.node` file the app unpacks must be built for the Node
// module version of the pinned Electron, or the app fails only when the module is first loaded.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
// node-abi: the maintained table of Node/Electron versions → NODE_MODULE_VERSION (what
// prebuild-install and @electron/rebuild use).
const nodeAbi = require('node-abi') as { getAbi(target: string, runtime: 'node' | 'electron'): string };

export interface NativeModule {
  /** Path relative to the folder that was checked. */
  file: string;
  /** NODE_MODULE_VERSION the file was built for; null for a Node-API module (ABI-stable). */
  abi: number | null;
  napi: boolean;
  ok: boolean;
}

export interface AbiReport {
  electronVersion: string;
  expectedAbi: number;
  modules: NativeModule[];
  ok: boolean;
}

/** The Electron version the app is built with (the installed `electron` package). */
export function pinnedElectronVersion(root: string = process.cwd()): string {
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

export function electronAbi(electronVersion: string): number {
  return Number(nodeAbi.getAbi(electronVersion, 'electron'));
}

/**
 * The module version a native addon registers for, read from its exported symbol
 * `node_register_module_v<N>` (`napi_register_module_v1` for Node-API addons). The symbol name
 * is in the export table of ELF, Mach-O and PE files alike, so this works for every platform's
 * build without binutils.
 */
export function addonAbi(file: string): { abi: number | null; napi: boolean } {
  const text = fs.readFileSync(file).toString('latin1');
  const m = /node_register_module_v(\d+)/.exec(text);
  return { abi: m ? Number(m[1]) : null, napi: text.includes('napi_register_module_v1') };
}

/** The same, from the dynamic symbol table with `nm -D` (Linux, binutils) — a cross-check. */
export function addonAbiFromNm(file: string): number | null {
  const out = execFileSync('nm', ['-D', '--defined-only', file], { encoding: 'utf8' });
  const m = /\bnode_register_module_v(\d+)\b/.exec(out);
  return m ? Number(m[1]) : null;
}

export function nodeFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.node'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Checks every `.node` file under `dir` (an app's resources, or a whole packaged app). */
export function checkNativeAbis(dir: string, electronVersion: string): AbiReport {
  const expectedAbi = electronAbi(electronVersion);
  const modules = nodeFilesUnder(dir).map((file) => {
    const { abi, napi } = addonAbi(file);
    const ok = abi === null ? napi : abi === expectedAbi;
    return { file: path.relative(dir, file), abi, napi, ok };
  });
  return { electronVersion, expectedAbi, modules, ok: modules.every((m) => m.ok) };
}

export function formatAbiReport(report: AbiReport): string {
  const lines = [`Native modules vs Electron ${report.electronVersion} (NODE_MODULE_VERSION ${report.expectedAbi}):`];
  for (const m of report.modules) {
    const built = m.abi === null ? (m.napi ? 'Node-API (any version)' : 'no module registration found') : `built for ${m.abi}`;
    lines.push(`  ${m.ok ? 'ok      ' : 'MISMATCH'} ${m.file}: ${built}`);
  }
  if (report.modules.length === 0) lines.push('  (no .node files)');
  return lines.join('\n');
}
