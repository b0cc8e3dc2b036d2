import { test, expect } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { makePdf } from '../fixtures/pdf.js';
import { sentRequest } from './signing-helpers.js';

// axe-core on the public signing page and the documents pages: no serious or critical violations.

const FIELDS = [
  { type: 'signature' as const, page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07, label: 'Signature' },
  { type: 'checkbox' as const, page: 1, x: 0.6, y: 0.3, width: 0.04, height: 0.03, label: 'I agree' },
  { type: 'text' as const, page: 1, x: 0.1, y: 0.3, width: 0.4, height: 0.04, label: 'Reference' },
  { type: 'date' as const, page: 1, x: 0.6, y: 0.76, width: 0.16, height: 0.03, label: 'Date' },
  { type: 'name' as const, page: 1, x: 0.1, y: 0.84, width: 0.3, height: 0.03, label: 'Name' },
];

test('the public signing page, its dialogs and the signed state', async ({ server, page }) => {
  const owner = await server.signup();
  const { url } = await sentRequest(owner, FIELDS);
  await page.goto(url);
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await expectAccessible(page, 'signing page');
  await page.getByRole('button', { name: 'Next field' }).click();
  await expectAccessible(page, 'signing page, guided');
  await page.getByRole('button', { name: /^Signature/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'signature dialog (draw)');
  await page.getByRole('tab', { name: 'Type' }).click();
  await expectAccessible(page, 'signature dialog (type)');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: /^Date/ }).click();
  await expectAccessible(page, 'date dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Decline' }).click();
  await expectAccessible(page, 'decline dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('checkbox', { name: /I agree/ }).click();
  await page.getByRole('button', { name: /^Reference/ }).click();
  await page.getByRole('dialog').getByLabel('Reference').fill('R-1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: 'Finish signing' }).click();
  await expect(page.getByText('Everyone has signed.')).toBeVisible();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(2);
  await expectAccessible(page, 'signed document');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('the public signing page', async ({ server, page }) => {
    const owner = await server.signup();
    const { url } = await sentRequest(owner, FIELDS);
    await page.goto(url);
    await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
    await expectAccessible(page, 'signing page (phone)');
    await page.getByRole('button', { name: 'Zoom in' }).tap();
    await expectAccessible(page, 'signing page zoomed (phone)');
  });
});

test('the documents pages: home, dialogs, requests, editor, status, in-person signing', async ({ server, signedIn: { page, client } }) => {
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
  await expectAccessible(page, 'documents (empty)');
  await page.getByRole('button', { name: 'New folder' }).click();
  await expectAccessible(page, 'new folder dialog');
  await page.getByLabel('Name').fill('Contracts');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('upload-input').setInputFiles([{ name: 'Lease.pdf', mimeType: 'application/pdf', buffer: await makePdf(1) }]);
  await expect(page.getByTestId('doc-item')).toHaveCount(1);
  await expectAccessible(page, 'documents (folder with a document)');
  await page.getByRole('button', { name: 'Share' }).click();
  await expectAccessible(page, 'share folder dialog');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('dialog').locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await expectAccessible(page, 'preview dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Request signatures' }).click();
  await expectAccessible(page, 'new request dialog');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Send for signature')).toBeVisible();
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByRole('button', { name: 'Add signer' }).click();
  await page.getByTestId('palette-signature').click();
  await page.getByTestId('page-drop-1').click({ position: { x: 200, y: 600 } });
  await expect(page.getByTestId('field-box')).toHaveCount(1);
  await expectAccessible(page, 'request editor');
  await page.getByRole('button', { name: 'Send for signature' }).click();
  await expect(page.getByText('Audit trail')).toBeVisible();
  await page.getByRole('button', { name: /^Copy link/ }).click();
  await expect(page.getByText(/Link for Grace Hopper/)).toBeVisible();
  await expectAccessible(page, 'request status');
  await page.getByRole('button', { name: 'Sign in person' }).click();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await expectAccessible(page, 'in-person signing');
  await page.goto(`${server.url}/documents`);
  await page.getByRole('tab', { name: 'Signature requests' }).click();
  await expect(page.getByRole('row', { name: /Lease/ })).toBeVisible();
  await expectAccessible(page, 'signature requests list');
  expect(client.entityId).toBeTruthy();
});
