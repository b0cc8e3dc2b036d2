// The packaged app, driven through Playwright's `_electron`: it opens its window on the local
// server, keeps data across a restart, stops its server when it quits, and seals a signed PDF in
// its seal worker (app.asar.unpacked) — the things that only break once packaged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { makeClient } from '../helpers/server.js';
import { makePdf } from '../fixtures/pdf.js';
import { PNG_DATA_URL } from '../integration/documents-helpers.js';
import { parseEther } from 'viem';
import { startDevnet } from '../helpers/devnet.js';

const executablePath = process.env.BUREAU_APP_EXECUTABLE;
test.skip(!executablePath, 'BUREAU_APP_EXECUTABLE must name a packaged test build (npm run desktop:package:test)');

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-packaged-'));
test.afterAll(() => fs.rmSync(profile, { recursive: true, force: true }));

async function launch(env: Record<string, string> = {}): Promise<{ app: ElectronApplication; window: Page; url: string }> {
  const app = await electron.launch({
    executablePath: executablePath!,
    args: process.platform === 'linux' ? ['--no-sandbox'] : [],
    env: { ...process.env, BUREAU_USER_DATA_DIR: profile, BUREAU_PORT: '0', BUREAU_DISABLE_UPDATES: '1', ...env },
  });
  const window = await app.firstWindow();
  await window.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//);
  return { app, window, url: new URL(window.url()).origin };
}

async function accepts(url: string): Promise<boolean> {
  return fetch(`${url}/api/health`).then(
    () => true,
    () => false,
  );
}

const account = { email: `owner-${Date.now()}@example.com`, password: 'correct horse battery staple', name: 'Owner', entityName: 'Packaged Ltd' };

test('opens a sandboxed window on its local server, and its server stops when it quits', async () => {
  const { app, window, url } = await launch();
  expect((await fetch(`${url}/api/health`)).status).toBe(200);
  await expect(window).toHaveTitle(/Bureau/);
  expect(await window.evaluate(() => [typeof (window as unknown as { bureau?: unknown }).bureau, typeof (globalThis as { require?: unknown }).require])).toEqual(['object', 'undefined']);
  expect(await window.evaluate(() => (window as unknown as { bureau: { version(): Promise<string> } }).bureau.version())).toMatch(/^\d+\.\d+\.\d+/);
  await app.close();
  expect(await accepts(url)).toBe(false);
});

test('keeps its data across a restart', async () => {
  let { app, url } = await launch();
  const signup = await makeClient(url).post('/api/auth/signup', account);
  expect(signup.status).toBe(201);
  await app.close();
  ({ app, url } = await launch());
  const login = await makeClient(url).post('/api/auth/login', { email: account.email, password: account.password });
  expect(login.status).toBe(200);
  await app.close();
});

test('seals a completed signature request in its seal worker', async () => {
  const { app, url } = await launch();
  try {
    const anon = makeClient(url);
    const login = await anon.post('/api/auth/login', { email: account.email, password: account.password });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const me = await makeClient(url, { cookie }).get('/api/auth/me');
    const entityId: string = me.body.entities[0].id;
    const owner = makeClient(url, { cookie, origin: url, 'x-entity-id': entityId });
    const base = '/api/documents/signature-requests';
    const doc = await owner.request('POST', '/api/documents?name=Contract.pdf', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf', 'x-filename': 'contract.pdf' } });
    expect(doc.status).toBe(201);
    const created = await owner.post(base, { documentId: doc.body.id, title: 'Packaged seal', signers: [{ name: 'Ada', email: 'ada@example.com' }] });
    const [ada] = created.body.signers;
    await owner.post(`${base}/${created.body.id}/fields`, { fields: [{ signerId: ada.id, type: 'signature', page: 1, x: 0.1, y: 0.7, width: 0.3, height: 0.08 }] });
    await owner.patch(`${base}/${created.body.id}`, { action: 'send' });
    const link = await owner.post(`${base}/${created.body.id}/signers/${ada.id}/signing-link`, {});
    const view = await anon.get(`/api/sign/${link.body.token}`);
    const fields = view.body.fields.map((f: { id: string }) => ({ fieldId: f.id, value: PNG_DATA_URL }));
    expect((await anon.post(`/api/sign/${link.body.token}`, { action: 'sign', fields })).status).toBe(200);
    await expect.poll(async () => (await owner.get(`${base}/${created.body.id}`)).body.status).toBe('completed');
    const pdf = Buffer.from(await (await fetch(`${url}${base}/${created.body.id}/document`, { headers: { cookie, 'x-entity-id': entityId } })).arrayBuffer());
    expect(pdf.toString('latin1')).toMatch(/\/ByteRange\s*\[/);
    expect(pdf.toString('latin1')).toContain('adbe.pkcs7.detached');
  } finally {
    await app.close();
  }
});

test('proves a shielded deposit in its prover worker and submits it to a devnet', async () => {
  test.setTimeout(240_000);
  const devnet = await startDevnet();
  const chainsFile = path.join(profile, 'chains.json');
  fs.writeFileSync(chainsFile, JSON.stringify({ local: devnet.config }));
  const { app, url } = await launch({ BUREAU_CHAINS_FILE: chainsFile });
  try {
    const anon = makeClient(url);
    const login = await anon.post('/api/auth/login', { email: account.email, password: account.password });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const me = await makeClient(url, { cookie }).get('/api/auth/me');
    const owner = makeClient(url, { cookie, origin: url, 'x-entity-id': me.body.entities[0].id });
    expect((await owner.post('/api/privacy/initialize', {})).status).toBe(200);
    const local = (await owner.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
    const funded = await devnet.deployer.sendTransaction({ to: local.accountAddress, value: parseEther('2') });
    await devnet.publicClient.waitForTransactionReceipt({ hash: funded });
    const shield = await owner.post('/api/privacy/shield', { chain: 'local', amount: '500000000000000000' });
    expect(shield.status, JSON.stringify(shield.body)).toBe(200);
    await expect.poll(async () => (await owner.get('/api/privacy/balance?chain=local')).body.balances?.[0]?.amount, { timeout: 90_000 }).toBeTruthy();
  } finally {
    await app.close();
    await devnet.stop();
  }
});
