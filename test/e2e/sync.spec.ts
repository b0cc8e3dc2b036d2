// Two device servers and a hosted instance: link in Settings → Sync, add a device with a code,
// join from a fresh install through "Join from another device", then revoke it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { test as base, expect, screenshot } from './fixtures.js';

const test = base.extend<{ hosted: RunningHosted; deviceB: TestServer }>({
  hosted: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-hosted-'));
    const hosted = await startHosted({ port: 0, dataDir, logLevel: 'silent' });
    await use(hosted);
    await hosted.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
  // Starts after the hosted instance, so it stops before it.
  deviceB: async ({ hosted: _hosted }, use) => {
    const server = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true });
    await use(server);
    await server.close();
  },
});

test('link an entity, add a second device with a code, see its data there, revoke it', async ({ server, hosted, deviceB, page, browser }) => {
  test.setTimeout(120_000);
  const email = `ada-${Date.now()}@example.com`;
  const password = 'analytical engine 1843';

  // Device A: sign up and create a ticket.
  await page.goto(`${server.url}/signup`);
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Business name').fill('Analytical Ltd');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: 'Helpdesk' }).click();
  await page.getByRole('button', { name: 'New ticket' }).click();
  const form = page.getByRole('dialog', { name: 'New ticket' });
  await form.getByLabel('Subject').fill('Printer on fire');
  await form.getByRole('button', { name: 'Create ticket' }).click();
  await expect(page.getByRole('heading', { name: 'Printer on fire' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Sync status/ })).toHaveCount(0);

  // Link it in Settings → Sync: a bad URL is a clear error, then the real one syncs.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sync' }).click();
  await expect(page.getByRole('heading', { name: 'Link to a hosted instance' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await page.getByLabel('Hosted URL').fill('ftp://bureau.example.com');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Link and sync' }).click();
  await expect(page.getByRole('alert')).toContainText('must be an http(s) URL');
  await page.getByLabel('Hosted URL').fill(hosted.url);
  await page.getByRole('button', { name: 'Link and sync' }).click();
  await expect(page.getByText(/^Synced (just now|a minute ago)$/)).toBeVisible();
  await expect(page.getByText(hosted.url)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Sync status: Synced/ })).toBeVisible();
  const devices = page.getByRole('table', { name: 'Devices' });
  await expect(devices.getByRole('row')).toHaveCount(2);
  await expect(devices.getByRole('row').nth(1)).toContainText('This device');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText(/^Synced /)).toBeVisible();
  await screenshot(page, 'sync-linked');

  // Add a device: the code as text and as a QR code.
  await page.getByRole('button', { name: 'Add a device' }).click();
  const modal = page.getByRole('dialog', { name: 'Add a device' });
  await expect(modal.getByRole('img', { name: 'QR code of the add-device code' })).toBeVisible();
  await expect(modal.getByText(/Single use\. Expires at .+ \(in \d+ min\)/)).toBeVisible();
  const code = (await modal.getByLabel('Add-device code', { exact: true }).textContent())?.trim() ?? '';
  expect(code.length).toBeGreaterThanOrEqual(6);
  await screenshot(page, 'sync-add-device');

  // Device B, a fresh install: join with the code and land signed in on the entity.
  const contextB = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const pageB = await contextB.newPage();
  await pageB.goto(deviceB.url);
  await pageB.getByRole('link', { name: 'Join from another device' }).click();
  await expect(pageB.getByRole('heading', { name: 'Join from another device' })).toBeVisible();
  await pageB.getByLabel('Hosted URL').fill(hosted.url);
  await pageB.getByLabel('Add-device code').fill('WRONG-CODE1');
  await pageB.getByLabel('E-mail').fill(email);
  await pageB.getByLabel('Password').fill(password);
  await pageB.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(pageB.getByRole('alert')).toContainText(/code/i);
  await pageB.getByLabel('Add-device code').fill(code);
  await screenshot(pageB, 'sync-join');
  await pageB.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(pageB.locator('#entity-select option:checked')).toHaveText('Analytical Ltd');
  await pageB.getByRole('link', { name: 'Helpdesk' }).click();
  await expect(pageB.getByRole('row', { name: /Printer on fire/ })).toBeVisible();
  await expect(pageB.getByRole('button', { name: /^Sync status: / })).toBeVisible();

  // Back on A: the new device is listed; revoke it, after a confirmation.
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(devices.getByRole('row')).toHaveCount(3);
  const other = devices.getByRole('row').filter({ hasNotText: 'This device' }).filter({ has: page.getByRole('button', { name: 'Revoke' }) });
  await other.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke device' });
  await expect(confirm).toContainText('stops syncing at once');
  await confirm.getByRole('button', { name: 'Revoke device' }).click();
  await expect(confirm).toBeHidden();
  await expect(devices.getByRole('row').filter({ hasText: 'Revoked' })).toHaveCount(1);
  await expect(devices.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await screenshot(page, 'sync-revoked');

  // B's background sync finds out, and its top-bar pill says so at its next poll (every 10 s).
  const revokedPill = pageB.getByRole('button', { name: 'Sync status: This device was revoked' });
  await expect(revokedPill).toBeVisible({ timeout: 30_000 });
  await revokedPill.click();
  await expect(pageB.getByText('This device was revoked', { exact: true })).toBeVisible();
  await expect(pageB.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  await expect(pageB.getByRole('table', { name: 'Devices' })).toHaveCount(0);
  await screenshot(pageB, 'sync-revoked-device');
  await contextB.close();
});

test('update required: Settings → Sync and the top bar say so, and the entity is read-only here until the app syncs again', async ({ server, signedIn, hosted }) => {
  test.setTimeout(90_000);
  const { page, client } = signedIn;
  const linked = await client.post('/api/sync/link', { hostedUrl: hosted.url, email: client.email, password: client.password });
  expect(linked.status).toBe(201);
  hosted.ctx.minSchemaVersion = 2;
  try {
    await page.goto(`${server.url}/settings/sync`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByText('Update required', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Read-only on this device' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Sync status: Update required/ })).toBeVisible();
    const refused = await client.post('/api/helpdesk/tickets', { subject: 'Not while outdated' });
    expect(refused.status).toBe(423);
    await screenshot(page, 'sync-update-required');
  } finally {
    hosted.ctx.minSchemaVersion = 1;
  }
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Read-only on this device' })).toHaveCount(0);
  await expect(page.getByText(/^Synced /)).toBeVisible();
});
