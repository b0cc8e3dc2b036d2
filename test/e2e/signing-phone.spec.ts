import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { sentRequest, storedValues, type FieldSpec } from './signing-helpers.js';

// A phone: 390×844 CSS pixels, touch, the page's viewport meta honoured (isMobile).
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

const FIELDS: FieldSpec[] = [
  // At the very left edge: the field the issue could not reach or tap on a phone.
  { type: 'checkbox', page: 1, x: 0.02, y: 0.3, width: 0.04, height: 0.03, label: 'I have read the house rules' },
  { type: 'text', page: 1, x: 0.55, y: 0.3, width: 0.4, height: 0.04, label: 'Flat number' },
  { type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07, label: 'Tenant signature' },
  { type: 'date', page: 1, x: 0.8, y: 0.76, width: 0.16, height: 0.03, label: 'Signed on' },
  { type: 'initials', page: 2, x: 0.88, y: 0.9, width: 0.1, height: 0.05, label: 'Initials' },
];

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** The element's box lies within the phone's screen. */
async function onScreen(page: Page, name: string | RegExp) {
  const box = (await page.getByRole('button', { name }).or(page.getByRole('checkbox', { name })).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
}

/** Draws a stroke with real touch input (CDP touch events, which Chromium turns into pointer events of type touch). */
async function drawWithFinger(page: Page, target: { x: number; y: number; width: number; height: number }) {
  const cdp = await page.context().newCDPSession(page);
  const at = (i: number) => ({ x: target.x + 20 + i * 22, y: target.y + target.height / 2 + (i % 2 ? -30 : 30) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(0)] });
  for (let i = 1; i <= 12; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(i)] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('a signer on a phone: the document fits, every field is reachable and tappable, "Next field" guides, a finger draws the signature', async ({ server, page }) => {
  const owner = await server.signup();
  const { requestId, url } = await sentRequest(owner, FIELDS, 2);
  await page.goto(url);
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(2);
  await noSidewaysScroll(page);

  // Fit to width: each page is as wide as the screen allows, and every field lies within it.
  const pageBox = (await page.locator('.pdf-page').first().boundingBox())!;
  expect(pageBox.x).toBeGreaterThanOrEqual(0);
  expect(pageBox.x + pageBox.width).toBeLessThanOrEqual(390);
  expect(pageBox.width).toBeGreaterThan(330);
  for (const f of await page.getByTestId('field-box').all()) {
    await f.scrollIntoViewIfNeeded();
    const b = (await f.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }

  // The guide: "Next field" takes the signer to each field in turn, with progress.
  const progress = page.getByTestId('signing-progress');
  await expect(progress).toContainText('5 fields to fill');
  const next = page.getByRole('button', { name: 'Next field' });
  await next.tap();
  await expect(progress).toContainText('Field 1 of 5');
  const rules = page.getByRole('checkbox', { name: /I have read the house rules/ });
  await expect(rules).toBeFocused();
  await onScreen(page, /I have read the house rules/);
  // The left-edge checkbox, a dozen pixels wide on this screen, takes a tap.
  await rules.tap();
  await expect(rules).toHaveAttribute('aria-checked', 'true');

  await next.tap();
  await expect(progress).toContainText('Field 2 of 5');
  await page.getByRole('button', { name: /^Flat number/ }).tap();
  await page.getByRole('dialog').getByLabel('Flat number').fill('4B');
  await page.getByRole('button', { name: 'Apply' }).tap();
  await expect(page.getByRole('button', { name: /^Flat number/ })).toHaveAccessibleName(/4B/);

  // Zoomed in, the pages scroll sideways inside their own box, not the page; "Next field" still finds the field.
  await page.getByRole('button', { name: 'Zoom in' }).tap();
  await page.getByRole('button', { name: 'Zoom in' }).tap();
  await expect(page.getByText('200%')).toBeVisible();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(2);
  const scroller = page.getByTestId('pdf-scroll');
  expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth * 1.5)).toBe(true);
  await noSidewaysScroll(page);
  await next.tap();
  await expect(progress).toContainText('Field 3 of 5');
  await onScreen(page, /^Tenant signature/);

  // A finger draws the signature.
  await page.getByRole('button', { name: /^Tenant signature/ }).tap();
  const pad = page.getByTestId('signature-pad');
  await expect(pad).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await drawWithFinger(page, (await pad.boundingBox())!);
  await expect(page.getByRole('button', { name: 'Apply' })).toBeEnabled();
  // A person lifts the finger and then taps Apply well apart; a tap within Chromium's gesture
  // window (about 300 ms) of the stroke's end is read as part of the same gesture and lost.
  await page.waitForTimeout(800);
  await page.getByRole('button', { name: 'Apply' }).tap();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Tenant signature/ })).toHaveAccessibleName(/drawn signature/);

  // The date is filled in already; the initials are on page 2 at the right edge, far off screen at 200%.
  await next.tap();
  await expect(progress).toContainText('Field 5 of 5');
  await onScreen(page, /^Initials/);
  await page.getByRole('button', { name: /^Initials/ }).tap();
  await page.getByRole('tab', { name: 'Type' }).tap();
  await page.getByRole('button', { name: 'Apply' }).tap();
  await expect(progress).toContainText('ready to finish');
  await screenshot(page, 'signing-phone');

  await page.getByRole('button', { name: 'Fit width' }).tap();
  await page.getByRole('button', { name: 'Finish signing' }).tap();
  await expect(page.getByText('Everyone has signed.')).toBeVisible();
  await noSidewaysScroll(page);

  const values = await storedValues(owner, requestId);
  expect(values['I have read the house rules']).toBe('true');
  expect(values['Flat number']).toBe('4B');
  expect(values['Tenant signature']).toMatch(/^data:image\/png;base64,/);
  expect(values['Initials']).toBe('KT');
  expect(values['Signed on']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});
