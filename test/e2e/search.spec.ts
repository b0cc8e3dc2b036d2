import { test, expect } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { makePdf } from '../fixtures/pdf.js';

// The top bar's search box: `/` and Ctrl+K focus it, results of every area grouped below it
// (tickets with their messages, documents with their PDF text, ledger events),
// the arrow keys move through them and Enter opens one; a click opens one too.

test('finds a ticket, a message, a document by its PDF text and a ledger event, and opens them from the keyboard', async ({ signedIn, server }) => {
  const { page, client } = signedIn;
  const ticket = (await client.post('/api/helpdesk/tickets', { subject: 'Walrus freezer broken', description: 'Compressor noise' })).body as { id: string };
  await client.post(`/api/helpdesk/tickets/${ticket.id}/messages`, { body: 'The walrus technician comes Friday' });
  const pdf = await makePdf(1, undefined, 'Walrus habitat lease');
  const uploaded = await client.request('POST', '/api/documents?name=Habitat.pdf', { raw: new Uint8Array(pdf), headers: { 'content-type': 'application/pdf' } });
  expect(uploaded.status).toBe(201);
  const event = await client.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-42', customerName: 'Walrus Aquarium', currency: 'USD', netAmount: '90.00' } });
  expect(event.status).toBe(201);
  await page.goto(`${server.url}/`);

  const box = page.getByRole('combobox', { name: 'Search' });
  await page.locator('body').press('/');
  await expect(box).toBeFocused();
  await box.fill('walrus');
  const results = page.getByRole('listbox', { name: 'Search results' });
  await expect(results.getByRole('group', { name: 'Tickets' }).getByRole('option')).toHaveCount(1);
  await expect(results.getByRole('group', { name: 'Ledger events' }).getByRole('option', { name: /Invoice INV-42 to Walrus Aquarium/ })).toBeVisible();
  // The PDF's text is read in the background after the upload: the document appears once it is.
  await expect(async () => {
    await box.fill('walrus habitat');
    await expect(results.getByRole('group', { name: 'Documents' }).getByRole('option', { name: /Habitat\.pdf/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(results.getByRole('option', { name: /Habitat\.pdf/ }).locator('mark').first()).toHaveText(/walrus/i);
  await expectAccessible(page, 'search results');

  // Arrow keys move through the results (the input keeps the focus); Enter opens the chosen one.
  await box.fill('walrus');
  await expect(results.getByRole('group', { name: 'Tickets' }).getByRole('option')).toHaveCount(1);
  await box.press('ArrowDown');
  await expect(results.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', 'search-option-0');
  await box.press('ArrowDown');
  await expect(results.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/helpdesk/tickets/${ticket.id}$`));
  await expect(page.getByRole('heading', { name: 'Walrus freezer broken' })).toBeVisible();
  await expect(box).toHaveValue('');

  // Escape closes the list; text with nothing found says so.
  await box.focus();
  await box.fill('zzzqqq');
  await expect(page.locator('.search-empty')).toHaveText('Nothing found for “zzzqqq”');
  await box.press('Escape');
  await expect(page.locator('.search-empty')).toBeHidden();
  await expect(box).toHaveValue('zzzqqq');
  await box.press('Escape');
  await expect(box).toHaveValue('');

  // Ctrl+K from anywhere, even inside another field; a click opens a result too.
  await page.getByLabel('Entity').focus();
  await page.keyboard.press('Control+k');
  await expect(box).toBeFocused();
  await box.fill('aquarium');
  await results.getByRole('option', { name: /Invoice INV-42/ }).click();
  await expect(page).toHaveURL(/\/ledger\/events\?event=/);
});
