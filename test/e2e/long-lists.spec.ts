import { expect, test } from './fixtures.js';

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
