import { PDFDocument } from 'pdf-lib';
import { test, expect, screenshot } from './fixtures.js';
import { makePdf } from '../fixtures/pdf.js';

test('upload → folder and reorder → request → place fields → send → sign in person → completed → download', async ({ signedIn: { page, client } }) => {
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();

  // A coloured folder, two uploads into it, then a drag to reorder.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Name').fill('Contracts');
  await page.getByLabel('Icon').selectOption('contract');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('navigation', { name: 'Folders' }).getByText('Contracts')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles([
    { name: 'Services agreement.pdf', mimeType: 'application/pdf', buffer: await makePdf(2) },
    { name: 'Annex.pdf', mimeType: 'application/pdf', buffer: await makePdf(1) },
  ]);
  const items = page.getByTestId('doc-item');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('Annex.pdf');
  await items.nth(1).dragTo(items.first());
  await expect(items.first()).toContainText('Services agreement.pdf');
  const folders = await client.get('/api/documents/folders');
  const listed = await client.get(`/api/documents?folderId=${folders.body[0].id}`);
  expect(listed.body.map((d: { name: string }) => d.name)).toEqual(['Services agreement.pdf', 'Annex.pdf']);
  await screenshot(page, 'documents');

  // Preview with pdf.js.
  await items.first().getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('dialog').locator('canvas')).toHaveCount(2);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // Request signatures: add a signer, drag a signature field onto page 1, send.
  // Share the folder with the member role (view only), then take the grant back.
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText('Everyone in this entity can see this folder')).toBeVisible();
  await page.getByLabel('Access').selectOption('view');
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('list', { name: 'Grants' })).toContainText('Everyone with role member');
  await screenshot(page, 'folder-share');
  const grants = await client.get(`/api/documents/folders/${folders.body[0].id}/grants`);
  expect(grants.body).toMatchObject([{ role: 'member', level: 'view' }]);
  await page.getByRole('button', { name: 'Remove grant' }).click();
  await expect(page.getByText('Everyone in this entity can see this folder')).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();

  await items.first().getByRole('button', { name: 'Request signatures' }).click();
  await page.getByLabel('Message to signers').fill('Please sign by Friday.');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Send for signature')).toBeVisible();
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByRole('button', { name: 'Add signer' }).click();
  await expect(page.getByRole('button', { name: /^1\. Grace Hopper/ })).toBeVisible();
  const page1 = page.getByTestId('page-drop-1');
  await expect(page1).toBeVisible();
  await page.getByTestId('palette-signature').dragTo(page1, { targetPosition: { x: 200, y: 700 } });
  await expect(page.getByTestId('field-box')).toHaveCount(1);
  await page.getByTestId('palette-date').click();
  await page1.click({ position: { x: 450, y: 700 } });
  await expect(page.getByTestId('field-box')).toHaveCount(2);
  await screenshot(page, 'request-editor');
  await page.getByRole('button', { name: 'Send for signature' }).click();
  await expect(page.getByText('Audit trail')).toBeVisible();
  await expect(page.getByText('No mail server is configured')).toBeVisible();
  await screenshot(page, 'request-sent');

  // Sign in person with a drawn signature.
  await page.getByRole('button', { name: 'Sign in person' }).click();
  await expect(page.getByText('Signing in person on this device')).toBeVisible();
  await page.getByRole('button', { name: /Signature \(required\)/ }).click();
  const pad = page.getByTestId('signature-pad');
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 100);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 25, box.y + 100 + (i % 2 ? -40 : 30));
  await page.mouse.up();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('button', { name: /^Signature \(required\)/ })).toHaveAccessibleName(/drawn signature/);
  await expect(page.getByTestId('field-box').locator('img')).toBeVisible();
  await screenshot(page, 'sign-in-person');
  await page.getByRole('button', { name: 'Finish signing' }).click();
  await expect(page.getByText('Everyone has signed.')).toBeVisible();
  // The signer now sees the sealed PDF: stamped fields plus the certificate page.
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(3);
  await screenshot(page, 'signed-document');

  // Back to the request: completed, chain intact, sealed PDF downloads.
  await page.getByRole('link', { name: 'Back to the request' }).click();
  await expect(page.getByText('completed', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/Hash chain intact/)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download signed PDF' }).click()]);
  expect(download.suggestedFilename()).toBe('Services agreement (signed).pdf');
  const path = await download.path();
  const fs = await import('node:fs');
  const pdf = await PDFDocument.load(fs.readFileSync(path));
  expect(pdf.getPageCount()).toBe(3);
  await screenshot(page, 'request-completed');

  await page.getByRole('tab', { name: 'Signature requests' }).click();
  await expect(page.getByRole('row', { name: /Services agreement/ })).toContainText('completed');
  await screenshot(page, 'requests-list');
});

test('a signing link: typed signature, text and checkbox fields; a second signer declines', async ({ signedIn: { page, client } }) => {
  const upload = await client.request('POST', '/api/documents?name=Order.pdf', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  const created = await client.post('/api/documents/signature-requests', {
    documentId: upload.body.id,
    title: 'Purchase order',
    message: 'Thanks for your order.',
    signers: [
      { name: 'Kim Buyer', email: 'kim@example.com' },
      { name: 'Lee Finance', email: 'lee@example.com' },
    ],
  });
  const [kim, lee] = created.body.signers;
  await client.post(`/api/documents/signature-requests/${created.body.id}/fields`, {
    fields: [
      { signerId: kim.id, type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07 },
      { signerId: kim.id, type: 'text', page: 1, x: 0.1, y: 0.6, width: 0.4, height: 0.04, label: 'PO number' },
      { signerId: kim.id, type: 'checkbox', page: 1, x: 0.6, y: 0.6, width: 0.04, height: 0.03, label: 'I agree' },
      { signerId: lee.id, type: 'signature', page: 1, x: 0.55, y: 0.75, width: 0.3, height: 0.07 },
    ],
  });
  await client.patch(`/api/documents/signature-requests/${created.body.id}`, { action: 'send' });
  const link = async (signerId: string) => (await client.post(`/api/documents/signature-requests/${created.body.id}/signers/${signerId}/signing-link`, {})).body.url as string;

  // An external signer has no account here: the link works signed out.
  await page.context().clearCookies();
  await page.goto(await link(kim.id));
  await expect(page.getByText('Thanks for your order.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Finish signing' })).toBeDisabled();
  await page.getByRole('button', { name: /^Signature \(required\)/ }).click();
  await page.getByRole('tab', { name: 'Type' }).click();
  await page.getByLabel('Type your name').fill('Kim Buyer');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: /^PO number \(required\)/ }).click();
  await page.getByRole('textbox', { name: 'PO number' }).fill('PO-4711');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('checkbox', { name: /^I agree \(required\)/ }).click();
  await screenshot(page, 'signing-link');
  await page.getByRole('button', { name: 'Finish signing' }).click();
  await expect(page.getByText('The others have been notified.')).toBeVisible();
  const fields = await client.get(`/api/documents/signature-requests/${created.body.id}/fields`);
  expect(fields.body.filter((f: { signerId: string }) => f.signerId === kim.id).map((f: { type: string; value: string }) => [f.type, f.value])).toEqual(
    expect.arrayContaining([
      ['signature', 'Kim Buyer'],
      ['text', 'PO-4711'],
      ['checkbox', 'true'],
    ]),
  );

  await page.goto(await link(lee.id));
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.getByLabel('Reason (shared with the sender)').fill('Budget not approved');
  await page.getByRole('dialog').getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('You declined this request.')).toBeVisible();
  const detail = await client.get(`/api/documents/signature-requests/${created.body.id}`);
  expect(detail.body.status).toBe('declined');
  expect(detail.body.signers[1]).toMatchObject({ status: 'declined', declineReason: 'Budget not approved' });
  await screenshot(page, 'signing-declined');
});
