import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { makePdf } from '../fixtures/pdf.js';
import type { SessionClient } from '../helpers/server.js';

// The request editor's field editing: drag to move, corner handles to resize, label and
// required/optional, delete; the keyboard moves, resizes and removes a focused field.

test.use({ viewport: { width: 1400, height: 1200 } });

interface StoredField {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  label: string | null;
  required: boolean;
}

/** A draft request for Grace Hopper with a signature, a date and a text field, made through the API. */
async function draftWithFields(client: SessionClient) {
  const upload = await client.request('POST', '/api/documents?name=Lease.pdf', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  const created = await client.post('/api/documents/signature-requests', { documentId: upload.body.id, title: 'Flat lease', signers: [{ name: 'Grace Hopper', email: 'grace@example.com' }] });
  const signerId = created.body.signers[0].id;
  const placed = await client.post(`/api/documents/signature-requests/${created.body.id}/fields`, {
    fields: [
      { signerId, type: 'signature', page: 1, x: 0.1, y: 0.3, width: 0.28, height: 0.06 },
      { signerId, type: 'date', page: 1, x: 0.5, y: 0.5, width: 0.16, height: 0.03 },
      { signerId, type: 'text', page: 1, x: 0.1, y: 0.7, width: 0.3, height: 0.03 },
    ],
  });
  expect(placed.status).toBe(201);
  return created.body.id as string;
}

async function fieldsOf(client: SessionClient, requestId: string): Promise<StoredField[]> {
  return (await client.get(`/api/documents/signature-requests/${requestId}/fields`)).body;
}

/** Waits until the stored field of `type` matches `expected` (saves run in the background). */
async function expectStored(client: SessionClient, requestId: string, type: string, expected: Partial<Record<keyof StoredField, unknown>>) {
  await expect
    .poll(async () => {
      const f = (await fieldsOf(client, requestId)).find((x) => x.type === type);
      if (!f) return 'missing';
      return Object.entries(expected).every(([k, v]) => (typeof v === 'number' ? Math.abs((f[k as keyof StoredField] as number) - v) < 0.002 : f[k as keyof StoredField] === v)) || JSON.stringify(f);
    })
    .toBe(true);
}

async function openEditor(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await expect(page.getByTestId('field-box')).toHaveCount(3);
}

test('drag moves a field, a corner resizes it, label and required persist after reload', async ({ server, signedIn: { page, client } }) => {
  const requestId = await draftWithFields(client);
  await openEditor(page, `${server.url}/documents/requests/${requestId}`);
  const pageBox = (await page.getByTestId('page-drop-1').boundingBox())!;
  const signature = page.getByRole('button', { name: /^Signature field for Grace Hopper/ });

  // Drag the field's middle 20 % of the page to the right and 10 % down.
  const start = (await signature.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + pageBox.width * 0.1, start.y + start.height / 2 + pageBox.height * 0.05, { steps: 4 });
  await page.mouse.move(start.x + start.width / 2 + pageBox.width * 0.2, start.y + start.height / 2 + pageBox.height * 0.1, { steps: 4 });
  await page.mouse.up();
  await expect(signature).toHaveAttribute('aria-pressed', 'true');
  await expectStored(client, requestId, 'signature', { x: 0.3, y: 0.4, width: 0.28, height: 0.06 });

  // The bottom-right handle makes it 10 % wider and 2.5 % taller; the top-left corner stays.
  const handle = page.getByTestId('field-handle-se');
  const h = (await handle.boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2 + pageBox.width * 0.1, h.y + h.height / 2 + pageBox.height * 0.025, { steps: 5 });
  await page.mouse.up();
  await expectStored(client, requestId, 'signature', { x: 0.3, y: 0.4, width: 0.38, height: 0.085 });

  // The top-left handle moves that corner; the bottom-right stays where it is.
  const nw = (await page.getByTestId('field-handle-nw').boundingBox())!;
  await page.mouse.move(nw.x + nw.width / 2, nw.y + nw.height / 2);
  await page.mouse.down();
  await page.mouse.move(nw.x + nw.width / 2 + pageBox.width * 0.05, nw.y + nw.height / 2, { steps: 5 });
  await page.mouse.up();
  await expectStored(client, requestId, 'signature', { x: 0.35, y: 0.4, width: 0.33, height: 0.085 });

  // Label and optional, in the selected field's settings.
  await expect(page.getByRole('heading', { name: 'Selected field' })).toBeVisible();
  await expectAccessible(page, 'request editor, a field selected');
  await page.getByLabel('Field label').fill('Tenant signature');
  await page.getByLabel('Field label').press('Enter');
  await expectStored(client, requestId, 'signature', { label: 'Tenant signature' });
  await page.getByRole('checkbox', { name: /Required/ }).uncheck();
  await expectStored(client, requestId, 'signature', { required: false });
  await screenshot(page, 'field-editor');

  await page.reload();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  const renamed = page.getByRole('button', { name: 'Tenant signature field for Grace Hopper, page 1, optional' });
  await expect(renamed).toBeVisible();
  await expect(renamed).toContainText('Tenant signature (optional)');
  // Placed where it was left: 35 % from the left of the page, 40 % from the top.
  const after = (await renamed.boundingBox())!;
  const reloadedPage = (await page.getByTestId('page-drop-1').boundingBox())!;
  expect((after.x - reloadedPage.x) / reloadedPage.width).toBeCloseTo(0.35, 2);
  expect((after.y - reloadedPage.y) / reloadedPage.height).toBeCloseTo(0.4, 2);
  await renamed.click();
  await expect(page.getByLabel('Field label')).toHaveValue('Tenant signature');
  await expect(page.getByRole('checkbox', { name: /Required/ })).not.toBeChecked();
});

test('keyboard: arrows nudge by the step, Shift by a larger one, Alt resizes, Escape deselects, Delete and Backspace remove', async ({ server, signedIn: { page, client } }) => {
  const requestId = await draftWithFields(client);
  await openEditor(page, `${server.url}/documents/requests/${requestId}`);
  const date = page.getByRole('button', { name: /^Date field for Grace Hopper/ });

  // A placed field is focusable; focus selects it.
  await date.focus();
  await expect(date).toHaveAttribute('aria-pressed', 'true');
  await expect(date).toHaveAccessibleDescription(/arrow keys move it/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  await expectStored(client, requestId, 'date', { x: 0.51, y: 0.495, width: 0.16, height: 0.03 });
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowLeft');
  await expectStored(client, requestId, 'date', { x: 0.46, y: 0.545 });
  await page.keyboard.press('Alt+ArrowRight');
  await page.keyboard.press('Alt+Shift+ArrowDown');
  await expectStored(client, requestId, 'date', { x: 0.46, y: 0.545, width: 0.165, height: 0.08 });
  // A nudge never leaves the page.
  for (let i = 0; i < 15; i++) await page.keyboard.press('Shift+ArrowLeft');
  await expectStored(client, requestId, 'date', { x: 0 });
  expect(page.url()).toContain(`/documents/requests/${requestId}`);

  await page.keyboard.press('Escape');
  await expect(date).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('heading', { name: 'Selected field' })).toHaveCount(0);

  // Delete removes the focused field, says so, and moves focus to the next field.
  const signature = page.getByRole('button', { name: /^Signature field for Grace Hopper/ });
  await signature.focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('field-box')).toHaveCount(2);
  await expect(page.getByRole('status').filter({ hasText: 'removed' })).toHaveText('Signature field for Grace Hopper, page 1 removed');
  await expect(page.getByRole('button', { name: /^Date field for Grace Hopper/ })).toBeFocused();
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('field-box')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'removed' })).toHaveText('Date field for Grace Hopper, page 1 removed');
  await expect.poll(async () => (await fieldsOf(client, requestId)).map((f) => f.type)).toEqual(['text']);

  // The settings' Delete button, for pointer users.
  await page.getByRole('button', { name: /^Text field for Grace Hopper/ }).click();
  await page.getByRole('button', { name: 'Delete field' }).click();
  await expect(page.getByTestId('field-box')).toHaveCount(0);
  await expect.poll(async () => (await fieldsOf(client, requestId)).length).toBe(0);

  // A newly placed field is selected at once.
  await page.getByTestId('palette-checkbox').click();
  await page.getByTestId('page-drop-1').click({ position: { x: 300, y: 300 } });
  await expect(page.getByRole('button', { name: /^Checkbox field for Grace Hopper/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { name: 'Selected field' })).toBeVisible();
});
