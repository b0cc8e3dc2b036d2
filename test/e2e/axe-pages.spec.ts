import { test, expect } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';

// axe-core on every page reachable from the main navigation, and the signed-out pages.

test('every page in the main navigation', async ({ signedIn: { page } }) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The app renders the navigation after the session loads: read its links once they are there.
  await expect(nav.getByRole('link').first()).toBeVisible();
  const labels = (await nav.getByRole('link').allTextContents()).map((t) => t.replace(/^\W+/, '').trim());
  expect(labels.length).toBeGreaterThan(3);
  const problems: string[] = [];
  for (const label of labels) {
    await nav.getByRole('link', { name: label }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
    try {
      await expectAccessible(page, label);
    } catch (err) {
      problems.push((err as Error).message.split('\n')[0]);
    }
  }
  expect(problems).toEqual([]);
});

test('the signed-out pages', async ({ server, page }) => {
  // A fresh install opens set-up; once an account exists, sign-in.
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Set up Bureau' })).toBeVisible();
  await expectAccessible(page, 'first-run set-up');
  await server.signup();
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, 'sign in');
  await page.goto(`${server.url}/signup`);
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expectAccessible(page, 'sign up');
});
