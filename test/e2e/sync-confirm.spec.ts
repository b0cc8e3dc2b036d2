// Linking to a hosted instance that confirms new accounts by e-mail: the link form asks for the
// code it sent ("We sent a code to …"), and the same link again with it syncs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { confirmationCode } from '../hosted/confirm.js';
import { test as base, expect, screenshot } from './fixtures.js';

const test = base.extend<{ smtp: TestSmtp; hosted: RunningHosted }>({
  smtp: async ({}, use) => {
    const smtp = await startSmtp();
    await use(smtp);
    await smtp.stop();
  },
  hosted: async ({ smtp }, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-hosted-confirm-'));
    const hosted = await startHosted({ port: 0, dataDir, logLevel: 'silent', smtpUrl: smtp.url });
    await use(hosted);
    await hosted.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
});

test('link with a new hosted account: the form asks for the mailed code, then syncs', async ({ hosted, smtp, signedIn: { page, client } }) => {
  test.setTimeout(90_000);
  await page.goto(`${page.url().replace(/\/$/, '')}/settings/sync`);
  await expect(page.getByRole('heading', { name: 'Link to a hosted instance' })).toBeVisible();
  await page.getByLabel('Hosted URL').fill(hosted.url);
  await page.getByLabel('Password').fill(client.password);
  await page.getByRole('button', { name: 'Link and sync' }).click();
  await expect(page.getByText(`We sent a code to ${client.email}`)).toBeVisible();
  await screenshot(page, 'sync-confirm-code');

  await page.getByLabel('Confirmation code').fill('ZZZZ-ZZZZ');
  await page.getByRole('button', { name: 'Confirm and link' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid or expired confirmation code');
  await page.getByLabel('Confirmation code').fill(await confirmationCode(smtp, client.email, 1));
  await page.getByRole('button', { name: 'Confirm and link' }).click();
  await expect(page.getByText(/^Synced (just now|a minute ago)$/)).toBeVisible();
  await expect(page.getByText(hosted.url)).toBeVisible();
});
