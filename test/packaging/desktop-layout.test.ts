// The packaged desktop app, as `npm run desktop:layout` builds it (electron-vite + electron-builder
// --linux dir around a stub Electron folder): built once, then inspected with @electron/asar and
// exercised from its own files — the workers really run from app.asar.unpacked.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import asar from '@electron/asar';
import Database from 'better-sqlite3';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addonAbi, addonAbiFromNm, checkNativeAbis, pinnedElectronVersion } from '../../packaging/abi.js';
import { dependencyClosure, hostedOnlyPackages, workerEntryFiles } from '../../packaging/files.js';
import { STUB_NOTICE } from '../../packaging/layout.js';
import { asarUnpackedUrl } from '../../main/asar-paths.js';
import { buildJoinSplit, createNote, flattenPublicSignals, releaseCurve, verifyJoinSplitProof } from '../../server/privacy/index.js';
import { makePdf } from '../fixtures/pdf.js';
import { newKeys, treeWithNotes } from '../privacy/fixtures.js';
import { startHosted } from '../../server/hosted/main.js';
import { freePort } from '../helpers/net.js';
import { startTestServer } from '../helpers/server.js';
import { sentRequest } from '../e2e/signing-helpers.js';
import type { Locator } from '@playwright/test';
import { extractRenderer, launchChromium } from './served-ui.js';

/** What the app may weigh (measured 40.0 MB packed + 44.6 MB unpacked; ~20 % headroom). */
const BUDGET = { asarBytes: 48e6, unpackedBytes: 54e6 };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-layout-test-'));
const app = path.join(tmp, 'linux-unpacked');
const asarFile = path.join(app, 'resources', 'app.asar');
const unpackedDir = `${asarFile}.unpacked`;
let buildOutput = '';
let entries: string[] = [];

const stat = (entry: string) => asar.statFile(asarFile, entry.replace(/^\//, ''), false) as { size?: number; unpacked?: boolean; files?: unknown };
const isFile = (entry: string) => stat(entry).files === undefined && typeof stat(entry).size === 'number';
const rootPkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));

beforeAll(() => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'packaging/layout.ts', '--out', tmp], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  buildOutput = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`desktop:layout failed (${r.status}):\n${buildOutput.slice(-4000)}`);
  entries = asar.listPackage(asarFile, { isPack: false }).map((e) => e.split(path.sep).join('/'));
}, 300_000);

afterAll(async () => {
  await releaseCurve();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('desktop layout', () => {
  it('says plainly that it is a layout around a stub, not a runnable app', () => {
    expect(buildOutput).toContain(STUB_NOTICE);
    const run = spawnSync(path.join(app, rootPkg.name), { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(STUB_NOTICE);
  });

  it('packs main, preload, renderer and every migration', () => {
    for (const file of ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) expect(entries).toContain(file);
    expect(entries.some((e) => /^\/out\/renderer\/assets\/index-.*\.js$/.test(e))).toBe(true);
    const migrations = fs
      .readdirSync('server/db/migrations', { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${path.relative('.', path.join(e.parentPath, e.name)).split(path.sep).join('/')}`);
    expect(migrations.length).toBeGreaterThan(5);
    for (const m of migrations) expect(entries).toContain(m);
    const packedPkg = JSON.parse(asar.extractFile(asarFile, 'package.json').toString());
    expect(packedPkg.main).toBe('out/main/index.js');
  });

  it('holds nothing from the repository outside its allowlist, and no source maps or type declarations', () => {
    const allowed = /^\/(package\.json$|out\/(main|preload|renderer)\/|server\/db\/migrations\/|resources\/(zk|fonts\/caveat)\/|node_modules\/)/;
    const files = entries.filter(isFile);
    expect(files.filter((e) => !allowed.test(e))).toEqual([]);
    expect(files.filter((e) => /\.(map|d\.ts|ts)$/.test(e))).toEqual([]);
    expect(files.filter((e) => /(^|\/)\.env|\.(pem|p12|key)$|secret/i.test(e) && !e.startsWith('/node_modules/'))).toEqual([]);
  });

  it('packs no dev dependency and nothing only the hosted service uses', () => {
    const prodClosure = new Set(dependencyClosure(Object.keys(rootPkg.dependencies)));
    const devOnly = Object.keys(rootPkg.devDependencies).filter((d) => !prodClosure.has(`node_modules/${d}`));
    expect(devOnly).toEqual(expect.arrayContaining(['electron', 'pdfjs-dist', 'react', 'react-dom', 'react-router', 'vite', 'typescript', 'electron-builder']));
    const packedPackages = (name: string) => entries.filter((e) => e === `/node_modules/${name}` || e.includes(`/node_modules/${name}/`));
    for (const d of [...devOnly, '@napi-rs/canvas']) expect(packedPackages(d), d).toEqual([]);
    const hosted = hostedOnlyPackages();
    expect(hosted).toContain('node_modules/@electric-sql/pglite');
    for (const dir of hosted) expect(entries.filter((e) => e.startsWith(`/${dir}/`)), dir).toEqual([]);
  });

  /** The main bundle: index.js and the chunks of what it imports lazily (dynamic `import()`). */
  const mainBundleFiles = () => entries.filter((e) => /^\/out\/main\/.*\.js$/.test(e)).map((e) => e.slice(1));

  it('packs every package the main bundle imports (each one loads from an extracted copy of the archive)', () => {
    const main = mainBundleFiles()
      .map((f) => asar.extractFile(asarFile, f).toString())
      .join('\n');
    const specs = [...new Set([...main.matchAll(/^import\s[^;]*?from\s*"([^"]+)"|\bimport\("([^".][^"]*)"\)/gm)].map((m) => m[1] ?? m[2]))].filter(
      (s) => !s.startsWith('node:') && !s.startsWith('.') && s !== 'electron',
    );
    // The packages the server starts with (express, drizzle-orm, zod, …) are bundled in
    // (scripts/server-bundle.mjs); these load from the archive's node_modules.
    expect(specs).toEqual(expect.arrayContaining(['better-sqlite3', 'pino', 'viem']));
    const extracted = path.join(tmp, 'extracted');
    asar.extractAll(asarFile, extracted);
    const probe = path.join(extracted, 'out', 'main', 'probe.mjs');
    fs.writeFileSync(probe, `for (const s of ${JSON.stringify(specs)}) await import(s);\nconsole.log('loaded ' + ${specs.length});\n`);
    // Run outside the repository, so nothing can resolve from its node_modules.
    const r = spawnSync(process.execPath, [probe], { cwd: extracted, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`loaded ${specs.length}`);
  }, 120_000);

  it('unpacks the prover and seal workers, the circuit artifacts and every native addon', () => {
    const unpacked = (entry: string) => stat(entry).unpacked === true && fs.existsSync(path.join(unpackedDir, entry));
    for (const file of workerEntryFiles) expect(unpacked(`out/main/${path.basename(file)}`), file).toBe(true);
    for (const name of fs.readdirSync('resources/zk').filter((f) => /\.(wasm|zkey)$|\.vkey\.json$/.test(f))) {
      expect(unpacked(`resources/zk/${name}`), name).toBe(true);
      const digest = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
      expect(digest(path.join(unpackedDir, 'resources', 'zk', name))).toBe(digest(path.join('resources', 'zk', name)));
    }
    for (const name of ['caveat-latin-400-normal.woff', 'caveat-latin-ext-400-normal.woff', 'OFL.txt']) expect(unpacked(`resources/fonts/caveat/${name}`), name).toBe(true);
    const addons = entries.filter((e) => e.endsWith('.node'));
    expect(addons).toEqual(['/node_modules/better-sqlite3/build/Release/better_sqlite3.node']);
    for (const a of addons) expect(unpacked(a), a).toBe(true);
  });

  it('routes every file URL of the main bundle to app.asar.unpacked, where the file exists', () => {
    const targets: string[] = [];
    for (const file of mainBundleFiles()) {
      const code = asar.extractFile(asarFile, file).toString();
      expect(code, file).not.toMatch(/new URL\(\s*["'][^"']+["']\s*,\s*import\.meta\.url\s*\)/);
      const bundleUrl = pathToFileURL(path.join(asarFile, file)).href;
      for (const [, target] of code.matchAll(/new URL\(\s*"([^"]+)"\s*,\s*[\w$]+\(import\.meta\.url\)\s*\)/g)) {
        targets.push(target);
        const resolved = fileURLToPath(new URL(target, asarUnpackedUrl(bundleUrl)));
        expect(resolved.startsWith(unpackedDir + path.sep), resolved).toBe(true);
        expect(fs.existsSync(resolved), resolved).toBe(true);
      }
    }
    expect(targets.sort()).toEqual(['../../resources/fonts/caveat/', '../../resources/zk/', './pdf-text-worker.mjs', './prover-worker.mjs', './read-worker.mjs', './seal-worker.mjs']);
    // Outside an archive nothing changes (development, tests, the headless server).
    expect(asarUnpackedUrl('file:///home/me/bureau/out/main/index.js')).toBe('file:///home/me/bureau/out/main/index.js');
  });

  it('seals a PDF with the seal worker as packaged, using only app.asar.unpacked', async () => {
    const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'Layout test seal' }]);
    cert.setIssuer([{ name: 'commonName', value: 'Layout test seal' }]);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    const original = await makePdf(1);
    const input = {
      original,
      entityName: 'Acme Ltd',
      request: { id: 'req-1', title: 'Packaged seal', sentAt: null, createdByName: null },
      document: { name: 'contract.pdf', sha256: crypto.createHash('sha256').update(original).digest('hex') },
      signers: [{ name: 'Ann', email: 'ann@example.com', role: 'signer', status: 'signed', viewedAt: null, signedAt: new Date().toISOString(), signedIp: null, signedUserAgent: null }],
      fields: [{ type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, value: 'Ann' }],
      auditHeadHash: null,
      certificate: { certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey), fingerprint: 'ab:cd' },
      completedAt: new Date(),
    };
    const worker = new Worker(path.join(unpackedDir, 'out', 'main', 'seal-worker.mjs'), { workerData: input });
    const reply = await new Promise<{ ok: boolean; pdf?: Uint8Array; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply.error).toBeUndefined();
    const sealed = Buffer.from(reply.pdf!);
    expect(sealed.toString('latin1')).toMatch(/\/ByteRange\s*\[/);
    expect(sealed.toString('latin1')).toContain('adbe.pkcs7.detached');
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(2); // the page + the certificate of completion
  }, 60_000);

  it('reads with the read worker as packaged, loading better-sqlite3 from app.asar.unpacked', async () => {
    const file = path.join(tmp, 'read-worker.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec("create table t (n integer, s text); insert into t values (1, 'Ä'), (2, 'b'), (3, 'c')");
    const worker = new Worker(path.join(unpackedDir, 'out', 'main', 'read-worker.mjs'), { workerData: { file } });
    try {
      const rows: unknown[] = [];
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (m: { rows?: unknown[]; done?: boolean; error?: string }) => {
          if (m.error) return reject(new Error(m.error));
          rows.push(...(m.rows ?? []));
          if (m.done) resolve();
          else worker.postMessage({ type: 'more', id: 1 });
        });
        worker.once('error', reject);
        worker.postMessage({ type: 'run', id: 1, sql: 'select n, unicode_lower(s) as s from t where n >= ? order by n', params: [1], raw: false, chunkRows: 2 });
      });
      expect(rows).toEqual([{ n: 1, s: 'ä' }, { n: 2, s: 'b' }, { n: 3, s: 'c' }]);
    } finally {
      await worker.terminate();
      db.close();
    }
  });

  it('reads the text of a PDF with the PDF text worker as packaged, loading unpdf from app.asar.unpacked', async () => {
    const worker = new Worker(path.join(unpackedDir, 'out', 'main', 'pdf-text-worker.mjs'));
    try {
      const data = new Uint8Array(await makePdf(2, [612, 792], 'Descaling instructions'));
      const answer = await new Promise<{ ok: boolean; text?: string; error?: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ id: 1, data, maxChars: 10_000 });
      });
      expect(answer.error).toBeUndefined();
      expect(answer.text).toContain('Descaling instructions');
    } finally {
      await worker.terminate();
    }
  });

  it('proves a JoinSplit with the prover worker and circuit artifacts as packaged', async () => {
    const alice = newKeys();
    const bob = newKeys();
    const { tree, notes } = treeWithNotes(alice, [70n, 30n]);
    const js = buildJoinSplit({
      tree,
      spendingKey: alice.spendingKey,
      token: 0n,
      inputs: [notes[0], notes[1]],
      outputs: [createNote(60n, bob.pubkey, 0n), createNote(40n, alice.pubkey, 0n)],
      extAmount: 0n,
      fee: 0n,
      extDataHash: 7n,
    });
    const zk = path.join(unpackedDir, 'resources', 'zk');
    const worker = new Worker(path.join(unpackedDir, 'out', 'main', 'prover-worker.mjs'), {
      workerData: { wasmPath: path.join(zk, 'joinsplit_2x2.wasm'), zkeyPath: path.join(zk, 'joinsplit_2x2.zkey') },
    });
    try {
      const reply = await new Promise<{ proof?: any; publicSignals?: string[]; error?: string }>((resolve, reject) => {
        worker.on('message', (m) => (m.type === 'ready' ? worker.postMessage({ id: 1, input: js.input }) : resolve(m)));
        worker.once('error', reject);
      });
      expect(reply.error).toBeUndefined();
      expect(reply.publicSignals!.map(BigInt)).toEqual(flattenPublicSignals(js.publicSignals));
      expect(await verifyJoinSplitProof(flattenPublicSignals(js.publicSignals), reply.proof)).toBe(true);
    } finally {
      await worker.terminate();
    }
  }, 120_000);

  it('stays within its size budget', () => {
    const unpackedBytes = fs
      .readdirSync(unpackedDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
    const asarBytes = fs.statSync(asarFile).size;
    console.log(`app.asar ${(asarBytes / 1e6).toFixed(1)} MB, app.asar.unpacked ${(unpackedBytes / 1e6).toFixed(1)} MB`);
    expect(asarBytes).toBeLessThan(BUDGET.asarBytes);
    expect(unpackedBytes).toBeLessThan(BUDGET.unpackedBytes);
  });
});

describe('the packed UI, served at any path', () => {
  it('renders a reloaded nested page of the desktop and a signing page of the hosted instance, in Chromium', async () => {
    const ui = extractRenderer(asarFile, entries, path.join(tmp, 'ui'));
    const device = await startTestServer({ rendererDir: ui });
    const port = await freePort();
    const hosted = await startHosted({ port, dataDir: path.join(tmp, 'hosted'), logLevel: 'silent', publicUrl: `http://127.0.0.1:${port}`, rendererDir: ui });
    const browser = await launchChromium();
    try {
      const client = await device.signup();
      expect((await client.post('/api/sync/link', { hostedUrl: hosted.url, email: client.email, password: client.password })).status).toBe(201);
      const { requestId, url } = await sentRequest(client, [{ type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07 }]);
      expect(url.startsWith(`${hosted.url}/sign/`)).toBe(true);
      expect((await client.post('/api/sync/run', {})).status).toBe(200);

      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('response', (res) => void (res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`)));
      /** What only the UI's scripts draw, from the API: the request's title and `also` (the pdf.js worker is an asset too). */
      const rendered = async (what: string, also: Locator) => {
        try {
          await page.getByText('Flat lease').first().waitFor({ timeout: 20_000 });
          await also.first().waitFor({ timeout: 20_000 });
        } catch (err) {
          throw new Error(`${what} did not render (${(err as Error).message.split('\n')[0]}); ${problems.join('; ') || 'no failed request'}`);
        }
      };
      const [name, value] = client.cookie.split('=');
      await page.context().addCookies([{ name, value, url: device.url, httpOnly: true, sameSite: 'Strict' }]);
      await page.goto(`${device.url}/documents/requests/${requestId}`);
      await rendered('the desktop page', page.getByText('Hash chain intact'));
      await page.reload();
      await rendered('the reloaded desktop page', page.getByText('Hash chain intact'));
      await page.goto(url);
      await rendered('the hosted signing page', page.locator('.pdf-page[data-rendered]'));
      await page.getByRole('button', { name: /^Signature \(required\)/ }).waitFor();
      expect(problems).toEqual([]);
      // Absolute asset URLs: relative ones (`./assets/…`) resolve under `/sign/` or `/documents/requests/`.
      const index = fs.readFileSync(path.join(ui, 'index.html'), 'utf8');
      expect(index).toMatch(/src="\/assets\/index-[^"]+\.js"/);
      expect(index).not.toMatch(/(src|href)="\.\//);
    } finally {
      await browser.close();
      await hosted.close();
      await device.close();
    }
  }, 180_000);
});

describe('native module ABI check', () => {
  it('reads the module version each addon registers, as nm -D does, and reports the mismatch expected here', () => {
    const report = checkNativeAbis(app, pinnedElectronVersion());
    expect(report.expectedAbi).toBe(139); // Electron 38
    expect(report.modules).toHaveLength(1);
    const [sqlite] = report.modules;
    const file = path.join(app, sqlite.file);
    expect(sqlite.abi).toBe(addonAbiFromNm(file));
    // Built from source for this machine's Node (Electron's headers cannot be fetched here).
    expect(sqlite.abi).toBe(Number(process.versions.modules));
    expect(report.ok).toBe(false);
    expect(buildOutput).toMatch(/MISMATCH .*better_sqlite3\.node: built for \d+/);
  });

  it('accepts a matching or a Node-API addon and rejects one without a registration', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'abi-'));
    fs.writeFileSync(path.join(dir, 'match.node'), Buffer.from('\0ELF..node_register_module_v139\0'));
    fs.writeFileSync(path.join(dir, 'napi.node'), Buffer.from('\0ELF..napi_register_module_v1\0'));
    fs.writeFileSync(path.join(dir, 'other.node'), Buffer.from('\0ELF..nothing\0'));
    expect(addonAbi(path.join(dir, 'match.node'))).toEqual({ abi: 139, napi: false });
    const report = checkNativeAbis(dir, '38.8.6');
    expect(report.modules.map((m) => [m.file, m.ok])).toEqual([
      ['match.node', true],
      ['napi.node', true],
      ['other.node', false],
    ]);
  });

  it('is a hard failure after packing a release or test build, a report in a layout build', async () => {
    type Loaded = { afterPack(context: never): Promise<void>; electronFuses: Record<string, boolean> | null; npmRebuild: boolean };
    const load = async (kind: string): Promise<Loaded> => {
      process.env.BUREAU_BUILD = kind;
      vi.resetModules(); // the config reads BUREAU_BUILD as it loads
      try {
        return (await import('../../electron-builder.config.js')).default as unknown as Loaded;
      } finally {
        delete process.env.BUREAU_BUILD;
      }
    };
    const context = { appOutDir: app } as never;
    const release = await load('release');
    await expect(release.afterPack(context)).rejects.toThrow(/install-app-deps/);
    expect(release.electronFuses).toMatchObject({ runAsNode: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true, enableNodeOptionsEnvironmentVariable: false });
    expect(release.npmRebuild).toBe(false);
    const test = await load('test');
    expect(test.electronFuses?.enableNodeCliInspectArguments).toBe(true);
    await expect(test.afterPack(context)).rejects.toThrow(/install-app-deps/);
    const layout = await load('layout');
    expect(layout.electronFuses).toBeNull();
    await expect(layout.afterPack(context)).resolves.toBeUndefined();
  });
});
