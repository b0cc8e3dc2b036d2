// The Wallet UI on the real devnet: set up → shield → private send between two entities →
// both balances update (real proofs in the server's prover, real UserOperations through Alto).
import path from 'node:path';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';
import { closeProver } from '../../server/wallet/index.js';
import { screenshot } from './fixtures.js';

let devnet: Devnet;
let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  devnet = await startDevnet();
  server = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true, chains: { local: devnet.config as unknown as Record<string, unknown> } });
});

test.afterAll(async () => {
  if (server) {
    await closeProver(server.ctx);
    await server.close();
  }
  await devnet?.stop();
});


async function openAs(browser: Browser, client: SessionClient): Promise<Page> {
  const context = await browser.newContext();
  const [name, value] = client.cookie.split('=');
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${server.url}/wallet`);
  return page;
}

async function setUp(page: Page) {
  await expect(page.getByRole('heading', { name: 'Set up the private wallet' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up private wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Shielded balance' })).toBeVisible();
}

test('set up, shield, send privately to another business, balances update', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await server.signup({ entityName: 'Alpha Trading' });
  const b = await server.signup({ entityName: 'Beta Supplies' });
  const pageA = await openAs(browser, a);
  await screenshot(pageA, 'wallet-setup');
  await setUp(pageA);
  const pageB = await openAs(browser, b);
  await setUp(pageB);

  const status = (await a.get('/api/privacy/status')).body;
  const local = status.chains.find((c: { chain: string }) => c.chain === 'local');

  // A newcomer's first shield, before the business account holds any ETH: explained in plain words.
  await pageA.getByRole('button', { name: 'Shield', exact: true }).click();
  let shieldDialog = pageA.getByRole('dialog', { name: 'Shield funds' });
  await shieldDialog.getByLabel(/Amount/).fill('0.01');
  await shieldDialog.getByRole('button', { name: 'Shield' }).click();
  // Checked before anything is proved: the balance it would need is named.
  await expect(shieldDialog.getByRole('alert')).toHaveText('That is more than the 0 ETH your business account holds (under “Public accounts”).');
  await expect(shieldDialog.getByRole('button', { name: 'Confirm and shield' })).toHaveCount(0);
  await shieldDialog.getByRole('button', { name: 'Cancel' }).click();

  // The public accounts, their balances, and funding them from the devnet (local chain only).
  const accounts = pageA.locator('[data-public-account="account"]');
  await expect(accounts.getByLabel('Business account balance')).toHaveText('0 ETH');
  await expect(accounts).toContainText('To fund it, send ETH on local');
  await accounts.getByRole('button', { name: /Fund from the devnet/ }).click();
  await expect(accounts.getByLabel('Business account balance')).toHaveText('1 ETH');
  await accounts.getByRole('button', { name: /Fund from the devnet/ }).click();
  await expect(accounts.getByLabel('Business account balance')).toHaveText('2 ETH');
  await pageA.locator('[data-public-account="relayer"]').getByRole('button', { name: /Fund from the devnet/ }).click();
  await expect(pageA.locator('[data-public-account="relayer"]').getByLabel('Relayer balance')).toHaveText('1 ETH');
  await screenshot(pageA, 'wallet-public-accounts');
  expect(await devnet.publicClient.getBalance({ address: local.accountAddress })).toBe(parseEther('2'));

  // Shield 1 ETH from A's smart account, confirming what will happen first.
  await pageA.getByRole('button', { name: 'Shield', exact: true }).click();
  shieldDialog = pageA.getByRole('dialog', { name: 'Shield funds' });
  await shieldDialog.getByLabel(/Amount/).fill('0');
  await shieldDialog.getByRole('button', { name: 'Shield' }).click();
  await expect(shieldDialog.getByRole('alert')).toHaveText('Enter an amount greater than zero.');
  // Each bad amount says what is wrong with it.
  for (const [typed, said] of [
    ['abc', 'Use only digits and one decimal point, e.g. 0.25.'],
    ['1e3', 'Write the amount out in full, without an exponent (1000 rather than 1e3).'],
    ['0.1234567890123456789', 'ETH has at most 18 decimals; this amount has 19.'],
  ]) {
    await shieldDialog.getByLabel(/Amount/).fill(typed);
    await shieldDialog.getByRole('button', { name: 'Shield' }).click();
    await expect(shieldDialog.getByRole('alert')).toHaveText(said);
  }
  await shieldDialog.getByLabel(/Amount/).fill('1');
  await shieldDialog.getByRole('button', { name: 'Shield' }).click();
  await expect(shieldDialog.getByTestId('transfer-confirmation')).toContainText('Shield 1 ETH from the business account into the private pool.');
  await shieldDialog.getByRole('button', { name: 'Confirm and shield' }).click();
  await expect(shieldDialog.getByRole('status')).toContainText('Proving on this device');
  await screenshot(pageA, 'wallet-shield-proving');
  await expect(shieldDialog.getByText(/Submitted in/)).toBeVisible({ timeout: 60_000 });
  await shieldDialog.getByRole('button', { name: 'Done' }).click();
  await expect(pageA.getByLabel('ETH balance')).toHaveText('1', { timeout: 60_000 });
  await expect(pageA.locator('tr[data-activity-kind="shielded"][data-activity-status="confirmed"]')).toBeVisible({ timeout: 30_000 });
  await expect(pageA.locator('tr[data-activity-kind="shielded"][data-activity-status="confirmed"]')).toContainText('Shielded 1 ETH from the business account into the private pool');

  // B's receive address, from B's screen.
  const bAddress = (await pageB.getByLabel('Shielded address').textContent())!.trim();
  expect(bAddress).toMatch(/^bzk1[0-9a-f]{136}$/);
  await screenshot(pageB, 'wallet-receive');

  // A sends 0.25 ETH privately: proved in the browser's server, relayed anonymously.
  await pageA.getByRole('button', { name: 'Send privately' }).click();
  const send = pageA.getByRole('dialog', { name: 'Send privately' });
  await send.getByLabel(/Amount/).fill('0.25');
  await send.getByLabel('Recipient shielded address').fill(bAddress.slice(0, -2) + (bAddress.endsWith('00') ? '11' : '00'));
  await send.getByRole('button', { name: 'Prove and send' }).click();
  // A typo is caught by the address's checksum in the form, before the confirm step.
  await expect(send.getByRole('alert')).toHaveText('This shielded address has a typo: its checksum does not match. Copy it again from the recipient.');
  await expect(send.getByRole('button', { name: 'Confirm and send' })).toHaveCount(0);
  await send.getByLabel('Recipient shielded address').fill(bAddress);
  // What it pays decides how the books take it: an expense, not a payable with no bill behind it.
  await send.getByLabel('What does it pay?').selectOption('expense');
  await send.getByRole('button', { name: 'Prove and send' }).click();
  await expect(send.getByRole('alert')).toHaveText('Choose the kind of expense.');
  await send.getByLabel('Expense').selectOption('6500');
  await send.getByRole('button', { name: 'Prove and send' }).click();
  const confirmation = send.getByTestId('transfer-confirmation');
  await expect(confirmation).toContainText('Send 0.25 ETH privately to');
  await expect(confirmation).toContainText('none is taken from your shielded funds');
  await expect(confirmation).toContainText('Shielded ETH after this: 0.75');
  await send.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(send.getByRole('status')).toContainText(/Proving on this device|Relaying/);
  await expect(send.getByText(/Submitted in/)).toBeVisible({ timeout: 60_000 });
  await screenshot(pageA, 'wallet-send-done');
  await send.getByRole('button', { name: 'Done' }).click();

  await expect(pageA.getByLabel('ETH balance')).toHaveText('0.75', { timeout: 60_000 });
  await expect(pageA.locator('tr[data-activity-kind="sent"][data-activity-status="confirmed"]')).toBeVisible({ timeout: 60_000 });
  await expect(pageB.getByLabel('ETH balance')).toHaveText('0.25', { timeout: 60_000 });
  await expect(pageB.locator('tr[data-activity-kind="received"]')).toContainText('Received 0.25 ETH privately');
  // A's books: the expense. B's receipt waits until B says what it was; then it settles B's invoice.
  await expect.poll(async () => (await a.get('/api/ledger/events?type=private_payment_sent')).body.events[0]?.payload.counterAccount, { timeout: 30_000 }).toBe('6500');
  await pageB.reload();
  const waiting = pageB.locator('[data-uncategorised]');
  await expect(waiting).toContainText('Received 0.25 ETH privately');
  await waiting.getByRole('button', { name: 'Say what it was' }).click();
  await waiting.getByRole('button', { name: 'Book it' }).click();
  await expect(waiting.getByRole('alert')).toHaveText('Enter the invoice number.');
  await waiting.getByLabel('Invoice number').fill('INV-77');
  await waiting.getByRole('button', { name: 'Book it' }).click();
  // No invoice INV-77 in B's books: settling it would leave a receivable below zero, so it is refused.
  await expect(waiting.getByRole('alert')).toContainText('Would leave Accounts receivable (1100)');
  // The card has no force option: its message does not offer one.
  await expect(waiting.getByRole('alert')).not.toContainText('force');
  expect((await b.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-77', currency: 'ETH/18', netAmount: '0.25' } })).status).toBe(201);
  await waiting.getByRole('button', { name: 'Book it' }).click();
  await expect(pageB.locator('[data-uncategorised]')).toHaveCount(0);
  const rebooked = (await b.get('/api/ledger/events?type=private_payment_received&postingStatus=posted')).body.events[0];
  expect(rebooked.payload).toMatchObject({ invoiceNumber: 'INV-77', counterAccount: '1100' });
  await screenshot(pageA, 'wallet-a');
  await screenshot(pageB, 'wallet-b');

  // B unshields part of it to a fresh public address, through B's own relayer (each business has its own).
  await pageB.locator('[data-public-account="relayer"]').getByRole('button', { name: /Fund from the devnet/ }).click();
  await expect(pageB.locator('[data-public-account="relayer"]').getByLabel('Relayer balance')).toHaveText('1 ETH');
  const fresh = privateKeyToAddress(generatePrivateKey());
  await pageB.getByRole('button', { name: 'Unshield' }).click();
  const unshield = pageB.getByRole('dialog', { name: 'Unshield to a public address' });
  await unshield.getByLabel(/Amount/).fill('0.1');
  await unshield.getByLabel('Public address (optional)').fill(fresh);
  await unshield.getByRole('button', { name: 'Unshield' }).click();
  await unshield.getByRole('button', { name: 'Confirm and unshield' }).click();
  await expect(unshield.getByText(/Submitted in/)).toBeVisible({ timeout: 60_000 });
  await unshield.getByRole('button', { name: 'Done' }).click();
  await expect(pageB.getByLabel('ETH balance')).toHaveText('0.15', { timeout: 60_000 });
  await expect(pageB.locator('tr[data-activity-kind="unshielded"][data-activity-status="confirmed"]')).toBeVisible({ timeout: 60_000 });
  expect(await devnet.publicClient.getBalance({ address: fresh })).toBe(parseEther('0.1'));

  // Asking for more than the shielded balance is explained, not just refused.
  await pageB.getByRole('button', { name: 'Send privately' }).click();
  const tooMuch = pageB.getByRole('dialog', { name: 'Send privately' });
  await tooMuch.getByLabel(/Amount/).fill('5');
  await tooMuch.getByLabel('Recipient shielded address').fill(status.shieldedAddress);
  await tooMuch.getByRole('button', { name: 'Prove and send' }).click();
  await expect(tooMuch.getByRole('alert')).toContainText('That is more than the 0.15 ETH you hold shielded');
  // Max fills in what is held.
  await tooMuch.getByRole('button', { name: 'Max' }).click();
  await expect(tooMuch.getByLabel(/Amount/)).toHaveValue('0.15');
  await screenshot(pageB, 'wallet-insufficient');
});

test('a chain without configuration is explained on the wallet page', async ({ browser }) => {
  const bare = await startTestServer({ rendererDir: path.resolve('out/renderer') });
  try {
    const c = await bare.signup({ entityName: 'Gamma Works' });
    const context = await browser.newContext();
    const [name, value] = c.cookie.split('=');
    await context.addCookies([{ name, value, url: bare.url, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    await page.goto(`${bare.url}/wallet`);
    await page.getByRole('button', { name: 'Set up private wallet' }).click();
    await expect(page.getByText('Wallet infrastructure not configured')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send privately' })).toHaveCount(0);
    await expect(page.getByLabel('Shielded address')).toHaveText(/^bzk1/);
    await screenshot(page, 'wallet-not-configured');
    await context.close();
  } finally {
    await bare.close();
  }
});
