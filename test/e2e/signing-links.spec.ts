import { test, expect, screenshot } from './fixtures.js';
import { makePdf } from '../fixtures/pdf.js';

test('"Copy link" per signer is recorded as shared; signing in person records its host and does not count as the signer viewing', async ({ server, signedIn: { page, client } }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const upload = await client.request('POST', '/api/documents?name=Lease.pdf', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  const created = await client.post('/api/documents/signature-requests', {
    documentId: upload.body.id,
    title: 'Flat lease',
    signers: [
      { name: 'Ada Tenant', email: 'ada@example.com' },
      { name: 'Bob Tenant', email: 'bob@example.com' },
    ],
  });
  const requestId = created.body.id as string;
  const [ada, bob] = created.body.signers as { id: string }[];
  await client.post(`/api/documents/signature-requests/${requestId}/fields`, {
    fields: [ada, bob].map((s, i) => ({ signerId: s.id, type: 'signature', page: 1, x: 0.1 + i * 0.45, y: 0.75, width: 0.3, height: 0.07 })),
  });
  await client.patch(`/api/documents/signature-requests/${requestId}`, { action: 'send' });
  await page.goto(`${server.url}/documents/requests/${requestId}`);
  await expect(page.getByText('Audit trail')).toBeVisible();

  // Copy link: the link goes to the clipboard and is shown; the audit trail says it was shared, by whom.
  await page.getByRole('button', { name: 'Copy link for Ada Tenant' }).click();
  await expect(page.getByText('Link for Ada Tenant copied.')).toBeVisible();
  const shown = await page.getByLabel('Signing link for Ada Tenant').inputValue();
  expect(shown).toMatch(/\/sign\/[A-Za-z0-9_-]+$/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  const auditList = page.locator('.audit-list');
  await expect(auditList).toContainText(`Signing link shared for Ada Tenant — ${client.user.name}`);
  await screenshot(page, 'request-copy-link');

  // Sign in person for Bob: the host opening the screen does not make Bob "viewed".
  const bobRow = page.getByRole('row', { name: /Bob Tenant/ });
  await bobRow.getByRole('button', { name: 'Sign in person' }).click();
  await expect(page.getByText('Signing in person on this device')).toBeVisible();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await page.getByRole('link', { name: 'Back to the request' }).click();
  await expect(bobRow).toContainText('invited');
  await expect(bobRow).not.toContainText('viewed');
  await expect(auditList).toContainText('In-person signing opened for Bob Tenant');
  await expect(auditList).not.toContainText('Document viewed');

  await bobRow.getByRole('button', { name: 'Sign in person' }).click();
  await page.getByRole('button', { name: /^Signature \(required\)/ }).click();
  await page.getByRole('tab', { name: 'Type' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: 'Finish signing' }).click();
  await expect(page.getByText('The others have been notified.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the request' }).click();
  await expect(bobRow).toContainText('signed');
  await expect(bobRow).toContainText(`in person, hosted by ${client.user.name}`);
  await expect(auditList).toContainText(`Signed in person, hosted by ${client.user.name}`);
  // Ada has not opened her link yet: still not viewed.
  await expect(page.getByRole('row', { name: /Ada Tenant/ })).not.toContainText('viewed');
  await screenshot(page, 'request-in-person');
});
