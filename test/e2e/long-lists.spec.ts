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
