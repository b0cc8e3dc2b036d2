import { test, expect, screenshot } from './fixtures.js';

test('signup, create an API key in the UI, use it, revoke it', async ({ server, page }) => {
  // A fresh install opens set-up (there is nobody to sign in as yet).
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Set up Bureau' })).toBeVisible();
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('E-mail').fill(`ada-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('analytical engine 1843');
  await page.getByLabel('Business name').fill('Analytical Ltd');
  await screenshot(page, 'signup');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByText('Ada Lovelace').first()).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', exact: true })).toBeVisible();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await page.getByRole('button', { name: 'New API key' }).click();
  await page.getByLabel('Name').fill('Accounting sync');
  // Nothing is granted until the person chooses it.
  await expect(page.getByRole('button', { name: 'Create key' })).toBeDisabled();
  await expect(page.getByLabel('read:documents')).not.toBeChecked();
  await page.getByLabel('read:documents').check();
  await page.getByLabel('read:helpdesk').check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const keyText = await page.getByLabel('Your new API key', { exact: true }).textContent();
  expect(keyText).toMatch(/^ak_/);
  await screenshot(page, 'settings-api-keys');

  const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${keyText}` } });
  expect(me.status).toBe(200);
  const body = await me.json();
  expect(body.apiKey.name).toBe('Accounting sync');
  expect(body.apiKey.scopes).toEqual(['read:documents', 'read:helpdesk']);
  expect(body.entity.name).toBe('Analytical Ltd');

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('row', { name: /Accounting sync/ }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('row', { name: /Accounting sync/ }).getByText('Revoked')).toBeVisible();
  const after = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${keyText}` } });
  expect(after.status).toBe(401);

  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText('Ada Lovelace');
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByLabel('Role').selectOption('viewer');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  // Not linked: the dialog says plainly that its link works only on this machine.
  await expect(page.getByText(/grace@example\.com was added\. This link works only on this machine/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText('Invited');
  await screenshot(page, 'settings-members');
});

test('a signed-in user can switch to a new entity', async ({ signedIn: { page } }) => {
  await expect(page.locator('#entity-select')).toBeVisible();
  await page.locator('#entity-select').selectOption('__new');
  await page.getByLabel('Name').fill('Second Co');
  await page.getByRole('button', { name: 'Create entity' }).click();
  await expect(page.locator('#entity-select')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.locator('#entity-select option:checked')).toHaveText('Second Co');
  await screenshot(page, 'frame');
});
