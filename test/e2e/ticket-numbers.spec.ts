import { test, expect } from './fixtures.js';

// Settings → Ticket numbers through the typed API client: the series shown, an owner's new
// prefix saved and used by the next ticket, the name's prefix back, a bad prefix refused in words.

test('an owner changes the ticket prefix and the next ticket uses it', async ({ signedIn, server }) => {
  const { page, client } = signedIn;
  await page.goto(`${server.url}/settings/ticket-numbers`);
  await expect(page.getByText('one series for the whole business')).toBeVisible();
  await expect(page.getByText("The prefix comes from the business's name.")).toBeVisible();

  await page.getByLabel('New prefix').fill('1AB');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  await page.getByLabel('New prefix').fill('ACME');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.mono').first()).toHaveText('ACME-1001');
  await expect(page.getByText('An owner chose this prefix.')).toBeVisible();
  const created = await client.post('/api/helpdesk/tickets', { subject: 'Printer' });
  expect(created.status).toBe(201);
  expect((created.body as { ticketNumber: string }).ticketNumber).toMatch(/^ACME-/);

  await page.getByRole('button', { name: 'Use the name again' }).click();
  await expect(page.getByText("The prefix comes from the business's name.")).toBeVisible();
});
