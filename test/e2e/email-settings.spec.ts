import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { test as base, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { draftRequest } from '../integration/documents-helpers.js';

// Settings → E-mail in the real UI: where mail goes and why it waits, then this device's own SMTP
// server set up with a Test against a real SMTP server (one that wants a password).

const test = base.extend<{ smtp: TestSmtp }>({
  smtp: async ({}, use) => {
    const smtp = await startSmtp({ auth: { user: 'office', pass: 'mail password' } });
    await use(smtp);
    await smtp.stop();
  },
});

test('an owner sets the SMTP server, Test reports the answer, and waiting mail goes out', async ({ signedIn, server, smtp }) => {
  const { page, client } = signedIn;
  const { requestId } = await draftRequest(client, { signers: [{ name: 'Ada', email: 'ada@example.com' }] });
  expect((await client.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' })).status).toBe(200);
  await page.goto(`${server.url}/settings/email`);
  await expect(page.locator('[data-field="route"]')).toContainText('Nowhere yet');
  await expect(page.locator('[data-field="queued"]')).toHaveText('1 e-mail(s)');
  await expect(page.getByText('Why mail waits: No SMTP server is set on this device')).toBeVisible();

  const form = page.getByRole('form', { name: 'SMTP server' });
  await form.getByLabel('Host').fill('127.0.0.1');
  await form.getByLabel('Security').selectOption('none');
  await form.getByLabel('Port').fill(String(smtp.port));
  await form.getByLabel('User name').fill('office');
  await form.getByLabel('Password').fill('wrong password');
  await form.getByLabel('From address').fill('office@acme.test');
  await form.getByLabel('From name').fill('Acme Office');

  // A wrong password: the server's refusal, in its words.
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByText('The test e-mail did not go')).toBeVisible();
  await expect(form.getByText('(SMTP 535)')).toBeVisible();
  expect(smtp.received).toHaveLength(0);

  await form.getByLabel('Password').fill('mail password');
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByText(`Test e-mail accepted for ${client.email}`)).toBeVisible();
  expect(smtp.received.map((m) => m.to)).toEqual([[client.email]]);

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved. Waiting mail goes out with the next pass.')).toBeVisible();
  await expect(page.locator('[data-field="route"]')).toContainText("this device's SMTP server, set below");
  await expect(form.getByLabel('Password')).toHaveAttribute('placeholder', 'Saved (leave empty to keep it)');
  // The invitation that waited goes out through it (the mail loop runs every few seconds).
  await expect.poll(() => smtp.received.filter((m) => m.to.includes('ada@example.com')).length, { timeout: 20_000 }).toBe(1);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.locator('[data-field="queued"]')).toHaveText('Nothing');
  await expect(page.getByText('Sent via SMTP')).toBeVisible();
  await expectAccessible(page, 'Settings → E-mail');
  await screenshot(page, 'settings-email');
});
