import { expect, test } from './fixtures.js';
import { makePdf } from '../fixtures/pdf.js';

// Issue 30: lists load a page at a time and long lists render only the rows in view.

test('the ticket list loads 50 at a time and renders a long list as it scrolls', async ({ server, signedIn: { page, client } }) => {
  test.setTimeout(120_000);
  for (let i = 1; i <= 120; i++) {
    const res = await client.post('/api/helpdesk/tickets', { subject: `Paged ticket ${String(i).padStart(3, '0')}` });
    expect(res.status).toBe(201);
  }
  const all = (await client.get('/api/helpdesk/tickets')).body as { subject: string }[];
  expect(all).toHaveLength(120);
  const ticketRows = page.getByRole('row').filter({ hasText: 'Paged ticket' });

  await page.goto(`${server.url}/helpdesk`);
  await expect(page.getByText('120 tickets')).toBeVisible();
  await expect(ticketRows).toHaveCount(50);
  await expect(page.getByRole('row', { name: new RegExp(all[49].subject) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(all[50].subject) })).toHaveCount(0);

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(ticketRows).toHaveCount(100);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  // 120 rows loaded, but only those near the view are in the page.
  await expect.poll(() => ticketRows.count()).toBeLessThan(120);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByRole('row', { name: new RegExp(all[119].subject) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`${all[0].subject}\\b`) })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('row', { name: new RegExp(all[0].subject) })).toBeVisible();
});

test('ledger events and the journal page through the server, a page at a time', async ({ server, signedIn: { page, client } }) => {
  test.setTimeout(120_000);
  const events = Array.from({ length: 30 }, (_, i) => ({
    type: 'invoice_created',
    timestamp: new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString(),
    payload: { invoiceNumber: `INV-${1000 + i}`, customerName: 'Paged Ltd', currency: 'USD', netAmount: `${100 + i}.00`, taxAmount: '0.00' },
  }));
  const batch = await client.post('/api/ledger/events/batch', { events });
  expect(batch.status).toBe(200);
  const eventRows = page.getByRole('table', { name: 'Ledger events' }).getByRole('row').filter({ has: page.getByRole('checkbox') }).filter({ hasText: 'USD' });

  await page.goto(`${server.url}/ledger/events`);
  await expect(page.getByText('1–25 of 30')).toBeVisible();
  await expect(eventRows).toHaveCount(25);
  await expect(page.getByRole('row', { name: /USD 129\.00/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /USD 100\.00/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('26–30 of 30')).toBeVisible();
  await expect(eventRows).toHaveCount(5);
  await expect(page.getByRole('row', { name: /USD 100\.00/ })).toBeVisible();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('1–25 of 30')).toBeVisible();

  // The journal: 20 entries a page.
  await page.goto(`${server.url}/ledger/journal`);
  await expect(page.getByText('INV-1029').first()).toBeVisible();
  await expect(page.getByText('INV-1009')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('INV-1009').first()).toBeVisible();
  await expect(page.getByText('INV-1029')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
});

test('the documents list loads 50 at a time, with folder and search filters on every page', async ({ server, signedIn: { page, client } }) => {
  test.setTimeout(180_000);
  const pdf = new Uint8Array(await makePdf(1));
  const upload = async (name: string, folderId?: string) => {
    const qs = new URLSearchParams({ name, ...(folderId ? { folderId } : {}) });
    const res = await client.request('POST', `/api/documents?${qs}`, { raw: pdf, headers: { 'content-type': 'application/pdf' } });
    expect(res.status).toBe(201);
  };
  for (let i = 1; i <= 55; i++) await upload(`Paged doc ${String(i).padStart(3, '0')}.pdf`);
  const archive = (await client.post('/api/documents/folders', { name: 'Archive' })).body;
  for (let i = 1; i <= 3; i++) await upload(`Filed doc ${i}.pdf`, archive.id);
  const items = page.getByTestId('doc-item');
  const more = page.getByRole('button', { name: 'Load more' });

  await page.goto(`${server.url}/documents`);
  await expect(items).toHaveCount(50);
  await expect(page.getByText('50 of 58 documents')).toBeVisible();
  // Newest first: the three filed ones and the newest 47 paged ones; the oldest wait for the next page.
  await expect(items.filter({ hasText: 'Paged doc 009.pdf' })).toHaveCount(1);
  await expect(items.filter({ hasText: 'Paged doc 008.pdf' })).toHaveCount(0);
  await more.click();
  await expect(items).toHaveCount(58);
  await expect(items.filter({ hasText: 'Paged doc 001.pdf' })).toHaveCount(1);
  await expect(more).toHaveCount(0);

  // A search pages too: 55 names match, 50 come first.
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('paged doc');
  await expect(page.getByText('50 of 55 documents')).toBeVisible();
  await expect(items).toHaveCount(50);
  await more.click();
  await expect(items).toHaveCount(55);
  await expect(more).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('doc 05');
  await expect(items).toHaveCount(6);

  // A folder lists only its own, on one page.
  await page.getByRole('searchbox', { name: 'Search documents' }).fill('');
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(items).toHaveCount(3);
  await expect(more).toHaveCount(0);
});

test('the signature requests list loads 50 at a time, with the status filter on every page', async ({ server, signedIn: { page, client } }) => {
  test.setTimeout(120_000);
  const pdf = new Uint8Array(await makePdf(1));
  const doc = await client.request('POST', '/api/documents?name=Paged.pdf', { raw: pdf, headers: { 'content-type': 'application/pdf' } });
  expect(doc.status).toBe(201);
  for (let i = 1; i <= 55; i++) {
    const res = await client.post('/api/documents/signature-requests', { documentId: doc.body.id, title: `Paged request ${String(i).padStart(3, '0')}` });
    expect(res.status).toBe(201);
  }
  const cancelled = await client.post('/api/documents/signature-requests', { documentId: doc.body.id, title: 'Withdrawn request' });
  expect((await client.patch(`/api/documents/signature-requests/${cancelled.body.id}`, { action: 'cancel' })).status).toBe(200);
  const rows = page.getByRole('row').filter({ hasText: /Paged request|Withdrawn request/ });
  const more = page.getByRole('button', { name: 'Load more' });

  await page.goto(`${server.url}/documents/requests`);
  await expect(rows).toHaveCount(50);
  await expect(page.getByText('50 of 56 requests')).toBeVisible();
  // Newest first: the oldest wait for the next page.
  await expect(rows.filter({ hasText: 'Paged request 007' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Paged request 006' })).toHaveCount(0);
  await more.click();
  await expect(rows).toHaveCount(56);
  await expect(rows.filter({ hasText: 'Paged request 001' })).toHaveCount(1);
  await expect(more).toHaveCount(0);

  await page.getByLabel('Status').selectOption('cancelled');
  await expect(rows).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Withdrawn request' })).toHaveCount(1);
  await expect(more).toHaveCount(0);
  await page.getByLabel('Status').selectOption('draft');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText('50 of 55 requests')).toBeVisible();
});
