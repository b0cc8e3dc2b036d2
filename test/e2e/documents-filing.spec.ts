import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { makePdf } from '../fixtures/pdf.js';
import type { SessionClient } from '../helpers/server.js';

// Filing in Documents: search, rename, move (menu and drag onto a folder), delete with a
// confirmation, "New folder" at the top level; the signed PDF filed back next to its original.

async function upload(client: SessionClient, name: string, folderId?: string) {
  const qs = new URLSearchParams({ name, ...(folderId ? { folderId } : {}) });
  const res = await client.request('POST', `/api/documents?${qs}`, { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}

const documentOf = async (client: SessionClient, id: string) => (await client.get(`/api/documents/${id}`)).body;
const row = (page: Page, name: string) => page.getByTestId('doc-item').filter({ has: page.getByText(name, { exact: true }) });
const folderButton = (page: Page, name: string) => page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name, exact: true });

async function openDocuments(page: Page) {
  await page.getByRole('link', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
}

test('search, rename, move by menu and by drag, delete with confirmation', async ({ signedIn: { page, client } }) => {
  const contracts = (await client.post('/api/documents/folders', { name: 'Contracts' })).body;
  const archive = (await client.post('/api/documents/folders', { name: 'Archive' })).body;
  const lease = await upload(client, 'Lease.pdf');
  const invoice = await upload(client, 'Invoice March.pdf');
  const offer = await upload(client, 'Offer.pdf', contracts.id);
  await openDocuments(page);
  await expect(page.getByTestId('doc-item')).toHaveCount(3);

  // Search by name, everywhere and then within a folder.
  const search = page.getByRole('searchbox', { name: 'Search documents' });
  await search.fill('INVOICE');
  await expect(page.getByTestId('doc-item')).toHaveCount(1);
  await expect(page.getByTestId('doc-item')).toContainText('Invoice March.pdf');
  await search.fill('zzz');
  await expect(page.getByText('No matching documents')).toBeVisible();
  await search.fill('');
  await expect(page.getByTestId('doc-item')).toHaveCount(3);
  await folderButton(page, 'Contracts').click();
  await page.getByRole('searchbox', { name: 'Search in Contracts' }).fill('offer');
  await expect(page.getByTestId('doc-item')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search in Contracts' }).fill('lease');
  await expect(page.getByTestId('doc-item')).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search in Contracts' }).fill('');
  await page.getByRole('button', { name: 'All documents' }).click();
  await expect(page.getByTestId('doc-item')).toHaveCount(3);

  // Rename from the row's menu.
  await page.getByRole('button', { name: 'More actions for Lease.pdf' }).click();
  await expectAccessible(page, 'document actions menu');
  await page.getByRole('menuitem', { name: 'Rename…' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Flat lease.pdf');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(row(page, 'Flat lease.pdf')).toBeVisible();
  expect((await documentOf(client, lease.id)).name).toBe('Flat lease.pdf');

  // Move from the menu, by keyboard this time.
  await page.getByRole('button', { name: 'More actions for Flat lease.pdf' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Rename…' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Move to…' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Move “Flat lease.pdf”' })).toBeVisible();
  await expectAccessible(page, 'move document dialog');
  await page.getByLabel('Move to').selectOption({ label: 'Archive' });
  await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText('Moved “Flat lease.pdf” to Archive.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'More actions for Flat lease.pdf' })).toBeFocused();
  expect((await documentOf(client, lease.id)).folderId).toBe(archive.id);

  // Move by dragging the row onto a folder in the tree.
  await row(page, 'Invoice March.pdf').dragTo(folderButton(page, 'Contracts'));
  await expect(page.getByText('Moved “Invoice March.pdf” to Contracts.')).toBeVisible();
  expect((await documentOf(client, invoice.id)).folderId).toBe(contracts.id);
  await folderButton(page, 'Contracts').click();
  await expect(page.getByTestId('doc-item')).toHaveCount(2);
  await screenshot(page, 'documents-filing');

  // Delete asks first: Cancel keeps the document, Delete removes it.
  await page.getByRole('button', { name: 'More actions for Offer.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete document?' });
  await expect(confirm).toContainText('“Offer.pdf” will be removed from Documents');
  await expectAccessible(page, 'delete document dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, 'Offer.pdf')).toBeVisible();
  expect((await client.get(`/api/documents/${offer.id}`)).status).toBe(200);
  await page.getByRole('button', { name: 'More actions for Offer.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row(page, 'Offer.pdf')).toHaveCount(0);
  expect((await client.get(`/api/documents/${offer.id}`)).status).toBe(404);
});

test('"New folder" is made at the top level unless a parent is chosen', async ({ signedIn: { page, client } }) => {
  await client.post('/api/documents/folders', { name: 'Contracts' });
  await openDocuments(page);
  // With a folder selected, a new folder still goes to the top level…
  await folderButton(page, 'Contracts').click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await expect(page.getByRole('dialog').getByLabel('Inside')).toHaveValue('');
  await page.getByRole('dialog').getByLabel('Name').fill('Receipts');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(folderButton(page, 'Receipts')).toBeVisible();
  // …and inside a folder only when one is chosen.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('2026');
  await page.getByRole('dialog').getByLabel('Inside').selectOption({ label: 'Contracts' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(folderButton(page, '2026')).toBeVisible();
  const folders = (await client.get('/api/documents/folders')).body as { id: string; name: string; parentId: string | null }[];
  const byName = Object.fromEntries(folders.map((f) => [f.name, f]));
  expect(byName.Receipts.parentId).toBeNull();
  expect(byName['2026'].parentId).toBe(byName.Contracts.id);
});

test('the signed PDF is filed next to its original once, linked to it; downloads are named "<name> (signed).pdf"; typed signatures use the handwriting font', async ({ browser, signedIn: { page, client } }) => {
  const contracts = (await client.post('/api/documents/folders', { name: 'Contracts' })).body;
  const deed = await upload(client, 'Deed.pdf', contracts.id);
  const created = await client.post('/api/documents/signature-requests', { documentId: deed.id, title: 'Deed of sale', signers: [{ name: 'Kim Buyer', email: 'kim@example.com' }] });
  const requestId = created.body.id as string;
  const signerId = created.body.signers[0].id;
  await client.post(`/api/documents/signature-requests/${requestId}/fields`, { fields: [{ signerId, type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.35, height: 0.08 }] });
  await client.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
  const link = await client.post(`/api/documents/signature-requests/${requestId}/signers/${signerId}/signing-link`, {});

  // The signer, on their own device, types a signature: it is shown in the handwriting font.
  const signerContext = await browser.newContext({ acceptDownloads: true });
  const signer = await signerContext.newPage();
  await signer.goto(link.body.url);
  await signer.getByRole('button', { name: /^Signature \(required\)/ }).click();
  await signer.getByRole('tab', { name: 'Type' }).click();
  const typed = signer.getByLabel('Type your name');
  await typed.fill('Kim Buyer');
  expect(await typed.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Bureau Signature');
  await expect
    .poll(() => signer.evaluate(async () => [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Bureau Signature' && f.status === 'loaded').length))
    .toBeGreaterThan(0);
  await signer.getByRole('button', { name: 'Apply' }).click();
  const shown = signer.locator('.typed-signature', { hasText: 'Kim Buyer' });
  await expect(shown).toBeVisible();
  expect(await shown.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Bureau Signature');
  await screenshot(signer, 'typed-signature-font');
  await signer.getByRole('button', { name: 'Finish signing' }).click();
  await expect(signer.getByText('Everyone has signed.')).toBeVisible();
  const [signerDownload] = await Promise.all([signer.waitForEvent('download'), signer.getByRole('button', { name: 'Download signed PDF' }).click()]);
  expect(signerDownload.suggestedFilename()).toBe('Deed (signed).pdf');
  const signedBytes = fs.readFileSync((await signerDownload.path())!);
  expect((await PDFDocument.load(new Uint8Array(signedBytes))).getPageCount()).toBe(2);
  await signerContext.close();

  // The owner finds the signed copy in the original's folder, linked to the request.
  const detail = (await client.get(`/api/documents/signature-requests/${requestId}`)).body;
  expect(detail.status).toBe('completed');
  const all = (await client.get('/api/documents')).body as { id: string; name: string; folderId: string | null; originalDocumentId: string | null; signedFromRequestId: string | null }[];
  const copies = all.filter((d) => d.signedFromRequestId === requestId);
  expect(copies).toEqual([expect.objectContaining({ id: detail.signedDocumentId, name: 'Deed (signed).pdf', folderId: contracts.id, originalDocumentId: deed.id })]);

  await openDocuments(page);
  await folderButton(page, 'Contracts').click();
  await expect(page.getByTestId('doc-item')).toHaveCount(2);
  const copyRow = row(page, 'Deed (signed).pdf');
  await expect(copyRow).toBeVisible();
  await expectAccessible(page, 'documents with a signed copy');
  await copyRow.getByRole('link', { name: /signed copy/ }).click();
  await expect(page.getByText('The signed PDF was filed in Documents, next to the original, as “Deed (signed).pdf”.')).toBeVisible();
  const [ownerDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download signed PDF' }).click()]);
  expect(ownerDownload.suggestedFilename()).toBe('Deed (signed).pdf');
  expect(fs.readFileSync((await ownerDownload.path())!).equals(signedBytes)).toBe(true);

  // The original stays while its request refers to it: the dialog says why.
  await page.getByRole('tab', { name: 'Documents' }).click();
  await folderButton(page, 'Contracts').click();
  await page.getByRole('button', { name: 'More actions for Deed.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('used by a signature request');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // Still exactly one copy after everything.
  const again = (await client.get('/api/documents')).body as { signedFromRequestId: string | null }[];
  expect(again.filter((d) => d.signedFromRequestId === requestId)).toHaveLength(1);
});
