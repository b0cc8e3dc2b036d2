// The Wallet UI of a linked entity on the real devnet: a private send goes through the hosted
// relay, and the screen shows the hosted relayer, its fee before confirming, and the relay job's
// progress until the transfer is on chain.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseEther, type Address } from 'viem';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { closeProver } from '../../server/wallet/index.js';
import { screenshot } from './fixtures.js';

let devnet: Devnet;
let hosted: RunningHosted;
let device1: TestServer;
let device2: TestServer;
let hostedDir: string;

async function fund(address: Address, eth: string) {
  const hash = await devnet.deployer.sendTransaction({ to: address, value: parseEther(eth) });
  await devnet.publicClient.waitForTransactionReceipt({ hash });
}

async function linked(server: TestServer, entityName: string): Promise<SessionClient> {
  const client = await server.signup({ entityName });
  const res = await client.post('/api/sync/link', { hostedUrl: hosted.url, email: client.email, password: client.password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await client.post('/api/privacy/initialize', {})).status).toBe(200);
  return client;
}

async function shieldedEth(client: SessionClient): Promise<string> {
  const res = await client.get('/api/privacy/balance?chain=local');
  return res.body.balances?.[0]?.amount ?? '0';
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  devnet = await startDevnet();
  const chains = { local: devnet.config as unknown as Record<string, unknown> };
  hostedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-relay-'));
  hosted = await startHosted({ port: 0, dataDir: hostedDir, chains, logLevel: 'silent' });
  device1 = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true, chains });
  device2 = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true, chains });
});

test.afterAll(async () => {
  for (const s of [device1, device2]) {
    if (!s) continue;
    await closeProver(s.ctx);
    await s.close();
  }
  await hosted?.close();
  await devnet?.stop();
  if (hostedDir) fs.rmSync(hostedDir, { recursive: true, force: true });
});

test('a linked business sends privately through the hosted relay, seeing its relayer, fee and progress', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await linked(device1, 'Alpha Linked');
  const b = await linked(device2, 'Beta Linked');
  const account = (await a.get('/api/privacy/status')).body.chains.find((c: { chain: string }) => c.chain === 'local').accountAddress as Address;
  await fund(account, '2');
  const quote = await (await fetch(`${hosted.url}/api/relay/quote?chain=local`)).json();
  await fund(quote.relayer, '1');
  expect((await a.post('/api/privacy/shield', { amount: parseEther('0.5').toString(), chain: 'local' })).status).toBe(200);
  await expect.poll(() => shieldedEth(a), { timeout: 60_000 }).toBe(parseEther('0.5').toString());
  const bAddress = (await b.get('/api/privacy/status')).body.shieldedAddress as string;

  const context = await browser.newContext();
  const [name, value] = a.cookie.split('=');
  await context.addCookies([{ name, value, url: device1.url, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${device1.url}/wallet`);
  await expect(page.getByLabel('ETH balance')).toHaveText('0.5', { timeout: 30_000 });
  await expect(page.locator('[data-public-account="relayer"]')).toContainText('go through the hosted relay');

  await page.getByRole('button', { name: 'Send privately' }).click();
  const send = page.getByRole('dialog', { name: 'Send privately' });
  await send.getByLabel(/Amount/).fill('0.1');
  await send.getByLabel('Recipient shielded address').fill(bAddress);
  await send.getByRole('button', { name: 'Prove and send' }).click();
  const confirmation = send.getByTestId('transfer-confirmation');
  await expect(confirmation).toContainText('Send 0.1 ETH privately to');
  await expect(confirmation).toContainText('from your shielded funds, on top of the amount, to the hosted relay');
  await expect(confirmation.getByTestId('relay-line')).toContainText(`Hosted relay ${quote.relayer.slice(0, 8)}`);
  await expect(confirmation.getByTestId('relay-line')).toContainText(/fee 0\.\d+ ETH/);
  await screenshot(page, 'wallet-relay-confirm');
  await send.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(send.getByText(/Submitted in/)).toBeVisible({ timeout: 60_000 });
  await expect(send.getByTestId('relay-job')).toContainText('included on chain', { timeout: 60_000 });
  await expect(send.getByTestId('relay-job')).toContainText('transaction 0x');
  await screenshot(page, 'wallet-relay-done');
  await send.getByRole('button', { name: 'Done' }).click();

  await expect.poll(() => shieldedEth(b), { timeout: 60_000 }).toBe(parseEther('0.1').toString());
  await expect(page.locator('tr[data-activity-kind="sent"][data-activity-status="confirmed"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('tr[data-activity-kind="sent"]')).toContainText(/relay fee 0\.\d+/);
});
