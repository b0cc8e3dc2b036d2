import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { sentRequest, storedValues, type FieldSpec } from './signing-helpers.js';

// en-US so the date input's segments are month/day/year.
test.use({ locale: 'en-US' });

// Placed out of reading order on purpose: focus must follow the page, not the order of placing.
const FIELDS: FieldSpec[] = [
  { type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07, label: 'Tenant signature' },
  { type: 'checkbox', page: 1, x: 0.6, y: 0.3, width: 0.04, height: 0.03, label: 'I agree to the house rules' },
  { type: 'text', page: 1, x: 0.1, y: 0.3, width: 0.4, height: 0.04, label: 'Flat number' },
  { type: 'date', page: 1, x: 0.6, y: 0.76, width: 0.16, height: 0.03, label: 'Signed on' },
  { type: 'name', page: 1, x: 0.1, y: 0.84, width: 0.3, height: 0.03, label: 'Printed name' },
];
const READING_ORDER = ['Flat number', 'I agree to the house rules', 'Tenant signature', 'Signed on', 'Printed name'];

/** The focused element's accessible label (aria-label or text), as a screen reader would start it. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '');

/** Presses Tab until the focused element's label starts with `label` (at most 40 presses). */
async function tabTo(page: Page, label: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).startsWith(label)) return;
  }
  throw new Error(`Tab never reached "${label}"`);
}

test('the whole signing flow by keyboard alone, with every field named for a screen reader', async ({ server, page }) => {
  const owner = await server.signup();
  const { requestId, url } = await sentRequest(owner, FIELDS);
  await page.goto(url);
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);

  // Every field is a focusable control, met in reading order, named with its label and state.
  const seen: string[] = [];
  // Finish is disabled until the required fields are filled, so the guide's "Next field" ends the walk.
  for (let i = 0; i < 40 && !(await focused(page)).startsWith('Next field'); i++) {
    await page.keyboard.press('Tab');
    const testId = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    if (testId === 'field-box') seen.push(await focused(page));
  }
  expect(seen.map((s) => READING_ORDER.find((l) => s.startsWith(l)))).toEqual(READING_ORDER);
  expect(seen).toEqual([
    'Flat number (required): empty',
    'I agree to the house rules (required)',
    'Tenant signature (required): empty',
    expect.stringMatching(/^Signed on \(required\): \d{4}-\d{2}-\d{2}$/),
    'Printed name: Kim Tenant, filled in for you',
  ]);
  await expect(page.getByRole('checkbox', { name: 'I agree to the house rules (required)' })).toHaveAttribute('aria-checked', 'false');

  // Back to the top and through the fields: Enter opens a field, typing fills it, Enter applies.
  await page.keyboard.press('Shift+Tab');
  await page.locator('body').focus();
  await tabTo(page, 'Flat number');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Flat number' })).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('Flat number')).toBeFocused();
  await page.keyboard.type('4B');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Focus comes back to the field, which now says what it holds.
  expect(await focused(page)).toBe('Flat number (required): 4B');

  // Space toggles the checkbox.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('I agree to the house rules (required)');
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: 'I agree to the house rules (required)' })).toHaveAttribute('aria-checked', 'true');

  // A signature opened from the keyboard starts on "Type", prefilled with the signer's name.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const typed = page.getByRole('dialog').getByLabel('Type your name');
  await expect(typed).toBeFocused();
  await expect(typed).toHaveValue('Kim Tenant');
  await page.keyboard.press('Enter');
  expect(await focused(page)).toBe('Tenant signature (required): signed as Kim Tenant');

  // The date: today by default, changed with the keys.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const date = page.getByRole('dialog').getByLabel('Signed on');
  await expect(date).toBeFocused();
  await page.keyboard.type('03152026');
  await expect(date).toHaveValue('2026-03-15');
  await page.keyboard.press('Enter');
  expect(await focused(page)).toBe('Signed on (required): 2026-03-15');

  // "Next field" says how far along the signer is; then Finish.
  await tabTo(page, 'Next field');
  await expect(page.getByTestId('signing-progress')).toContainText('ready to finish');
  await tabTo(page, 'Finish signing');
  await screenshot(page, 'signing-keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Everyone has signed.')).toBeVisible();

  expect(await storedValues(owner, requestId)).toMatchObject({
    'Flat number': '4B',
    'I agree to the house rules': 'true',
    'Tenant signature': 'Kim Tenant',
    'Signed on': '2026-03-15',
    'Printed name': 'Kim Tenant',
  });
});

test('"Next field" walks the fields left to fill in reading order, wrapping round; Escape closes a field without changing it', async ({ server, page }) => {
  const owner = await server.signup();
  const { url } = await sentRequest(owner, FIELDS);
  await page.goto(url);
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  const next = page.getByRole('button', { name: 'Next field' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signing-progress')).toContainText('Field 1 of 4');
  expect(await focused(page)).toMatch(/^Flat number/);
  await page.keyboard.press('Enter');
  await page.keyboard.type('12');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await focused(page)).toBe('Flat number (required): empty');
  const press = async () => {
    await next.focus();
    await page.keyboard.press('Enter');
  };
  await press();
  await expect(page.getByTestId('signing-progress')).toContainText('Field 2 of 4');
  expect(await focused(page)).toMatch(/^I agree/);
  await page.keyboard.press('Space');
  await press();
  expect(await focused(page)).toMatch(/^Tenant signature/);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // The date is filled in already, so "Next field" wraps round to the one left empty.
  await press();
  await expect(page.getByTestId('signing-progress')).toContainText('Field 1 of 4');
  expect(await focused(page)).toBe('Flat number (required): empty');
  await expect(page.getByTestId('signing-progress')).toContainText('1 required left');
});
