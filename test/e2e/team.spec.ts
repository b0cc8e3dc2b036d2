// A team from the UI: Dana invites Lee from Settings → Members (unlinked it says the link works
// only on this machine; linked the hosted instance makes the invitation, shown with its code and
// QR), and Lee accepts on a fresh install through "Accept an invitation" with her own name and
// password. Both installs then list both people with their names and roles; Dana's new password is
// her hosted account's too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { test as base, expect, screenshot } from './fixtures.js';

const test = base.extend<{ hosted: RunningHosted; leeLaptop: TestServer }>({
  hosted: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-team-'));
    const hosted = await startHosted({ port: 0, dataDir, logLevel: 'silent' });
    await use(hosted);
    await hosted.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
  leeLaptop: async ({ hosted: _hosted }, use) => {
    const server = await startTestServer({ rendererDir: path.resolve('out/renderer'), backgroundLoops: true });
    await use(server);
    await server.close();
  },
});

test('invite a colleague from Members, accept on a fresh install, both see both', async ({ server, hosted, leeLaptop, page, browser }) => {
  test.setTimeout(150_000);
  const danaEmail = `dana-${Date.now()}@example.com`;
  const leeEmail = `lee-${Date.now()}@example.com`;
  const password = 'dana knows this one';

  await page.goto(`${server.url}/signup`);
  await page.getByLabel('Your name').fill('Dana');
  await page.getByLabel('E-mail').fill(danaEmail);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Business name').fill('Acme Agency');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  const settingsNav = page.getByRole('navigation', { name: 'Settings' });

  // Not linked: the dialog says plainly that its link works only on this machine.
  await settingsNav.getByRole('link', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Add member' }).click();
  const unlinked = page.getByRole('dialog', { name: 'Add member' });
  await expect(unlinked).toContainText('works only on this machine');
  await expect(unlinked.getByRole('link', { name: 'Link it first' })).toBeVisible();
  await unlinked.getByRole('button', { name: 'Cancel' }).click();

  // Link in Settings → Sync (with this device's password).
  await settingsNav.getByRole('link', { name: 'Sync' }).click();
  await page.getByLabel('Hosted URL').fill(hosted.url);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Link and sync' }).click();
  await expect(page.getByText(/^Synced (just now|a minute ago)$/)).toBeVisible();

  // Members → Add member: the hosted instance's invitation, its code and QR code.
  await settingsNav.getByRole('link', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'Add member' });
  await expect(add).toContainText("join page");
  await add.getByLabel('Name').fill('Lee Agent');
  await add.getByLabel('E-mail').fill(leeEmail);
  await add.getByRole('button', { name: 'Invite' }).click();
  const shown = page.getByRole('dialog', { name: 'Lee Agent is invited' });
  await expect(shown.getByRole('img', { name: 'QR code of the join link' })).toBeVisible();
  await expect(shown).toContainText('No e-mail was sent');
  const code = (await shown.getByLabel('Invitation code', { exact: true }).textContent())?.trim() ?? '';
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  await screenshot(page, 'team-invited');
  await shown.getByRole('button', { name: 'Done' }).click();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByRole('row', { name: /Lee Agent/ })).toContainText('Invited');
  await expect(page.getByRole('table', { name: 'Invitations' }).getByRole('row', { name: /Lee Agent/ })).toContainText('sent');

  // Lee's fresh install: "Accept an invitation", her own name and password.
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const lee = await context.newPage();
  await lee.goto(leeLaptop.url);
  await lee.getByRole('link', { name: 'Accept an invitation' }).click();
  await expect(lee.getByRole('heading', { name: 'Accept an invitation' })).toBeVisible();
  await lee.getByLabel('Hosted URL').fill(hosted.url);
  await lee.getByLabel('Invitation code').fill(code);
  await lee.getByLabel('E-mail').fill(leeEmail);
  await lee.getByLabel('Your name').fill('Lee');
  await lee.getByLabel('Password').fill('lee chose her own');
  await screenshot(lee, 'team-accept');
  await lee.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(lee.locator('#entity-select option:checked')).toHaveText('Acme Agency');
  await lee.goto(`${leeLaptop.url}/settings/members`);
  const leeMembers = lee.getByRole('table', { name: 'Members' });
  await expect(leeMembers.getByRole('row', { name: /Dana/ })).toContainText('owner');
  await expect(leeMembers.getByRole('row', { name: /Lee/ })).toContainText('member');
  await expect(leeMembers.getByRole('row', { name: /Lee/ })).not.toContainText('Invited');

  // Back on Dana's desktop: Lee has joined under her own name.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Lee/ })).not.toContainText('Invited', { timeout: 1000 });
    await expect(page.getByRole('table', { name: 'Members' })).toContainText(leeEmail, { timeout: 1000 });
    await expect(page.getByRole('table', { name: 'Invitations' }).getByRole('row', { name: /Lee/ })).toContainText('accepted', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Lee/ }).getByRole('strong')).toHaveText('Lee');
  await screenshot(page, 'team-members');

  // Dana changes her password in Settings → Password: through the hosted account, for all her devices.
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Password' }).click();
  await page.getByLabel('Current password').fill('not the password');
  await page.getByLabel('New password').fill('dana has a new one');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('current password is wrong');
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();
  const check = await fetch(`${hosted.url}/sync/v1/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: danaEmail, password: 'dana has a new one', entityId: crypto.randomUUID(), entityName: 'Proof', deviceName: 'Probe' }) });
  expect(check.status).toBe(201);
  await context.close();
});
