// The wallet page after the chain behind its name was reset (the devnet started again, the app
// restarted on the same data): it says so, and *Resync* brings the wallet back on the new chain.
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseEther } from 'viem';
import fs from 'node:fs';
import os from 'node:os';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { makeClient, startTestServer, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';

let devnet: Devnet;
let server: TestServer;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-reset-'));

const start = (config: Devnet['config']) => startTestServer({ dataDir, rendererDir: path.resolve('out/renderer'), backgroundLoops: true, chains: { local: config as unknown as Record<string, unknown> } });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  devnet = await startDevnet({ bundler: false });
  server = await start(devnet.config);
});

test.afterAll(async () => {
  if (server) {
    await closeProver(server.ctx);
    await server.close();
  }
  await devnet?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a reset chain is explained, and Resync rebuilds the wallet from the new chain', async ({ browser }) => {
  test.setTimeout(120_000);
  const a = await server.signup({ entityName: 'Alpha Trading' });
  expect((await a.post('/api/privacy/initialize', { entityId: a.entityId })).status).toBe(200);
  const account = (await a.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').accountAddress;
  await devnet.publicClient.waitForTransactionReceipt({ hash: await devnet.deployer.sendTransaction({ to: account, value: parseEther('1') }) });
  expect((await a.get('/api/privacy/balance?chain=local')).status).toBe(200);

  // `npm run devnet` again (same addresses, new chain) and the app restarted on the same data.
  await devnet.stop();
  devnet = await startDevnet({ bundler: false });
  await closeProver(server.ctx);
  await server.close();
  server = await start(devnet.config);

  const context = await browser.newContext();
  const [name, value] = a.cookie.split('=');
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${server.url}/wallet`);
  await expect(page.getByText('This chain was reset: notes from before are gone')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Resync' }).click();
  await expect(page.getByText('This chain was reset: notes from before are gone')).toBeHidden({ timeout: 30_000 });
  const again = makeClient(server.url, { cookie: a.cookie, origin: server.url, 'x-entity-id': a.entityId });
  const local = (await again.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local');
  expect(local).toMatchObject({ chainReset: false, problem: null });
  await context.close();
});
