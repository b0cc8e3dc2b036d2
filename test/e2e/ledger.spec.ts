import fs from 'node:fs';
import { test, expect, screenshot } from './fixtures.js';
import { postEvent } from '../../server/ledger/post-event.js';

test('post an event through the API, see it in the UI, reclassify it there, see the reversal', async ({ signedIn: { page, client }, server }) => {
  const posted = await client.post('/api/ledger/events', {
    type: 'invoice_created',
    payload: { invoiceNumber: 'INV-7', customerName: 'Acme Ltd', currency: 'USD', netAmount: '1000.00', taxAmount: '200.00' },
    source: 'billing',
  });
  expect(posted.status).toBe(201);
  const eventId: string = posted.body.id;
  await client.post('/api/ledger/events', { type: 'bill_received', payload: { billNumber: 'B-1', currency: 'USD', netAmount: '300.00', taxAmount: '60.00' } });
  await client.post('/api/ledger/events', { type: 'invoice_created', payload: { currency: 'USD' } });

  await page.goto(`${server.url}/ledger`);
  await expect(page.getByRole('heading', { name: 'Ledger' })).toBeVisible();
  const row = page.locator(`tr[data-event-id="${eventId}"]`);
  await expect(row).toContainText('Invoice created');
  await expect(row).toContainText('USD 1000.00 + 200.00 tax');
  await expect(row).toContainText('Posted');
  await expect(page.locator('[data-count="posted"]')).toHaveText('2');
  await expect(page.locator('[data-count="failed"]')).toHaveText('1');
  await screenshot(page, 'ledger-events');
  await page.getByLabel('To').fill('2020-01-01');
  await expect(page.getByText('No events match')).toBeVisible();
  await page.getByLabel('To').fill('');
  await expect(row).toBeVisible();

  await row.click();
  const detail = page.getByTestId('ledger-event-detail');
  await expect(detail.getByRole('table')).toContainText('Accounts receivable');
  await expect(detail.getByRole('table')).toContainText('1200.00 USD');
  await screenshot(page, 'ledger-event-detail');
  await page.getByRole('button', { name: 'Close' }).first().click();

  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Reclassify selected (1)' }).click();
  await page.getByLabel('New event type').selectOption('payment_received');
  await page.getByRole('button', { name: 'Reclassify 1 event' }).click();
  const results = page.getByTestId('reclassify-results');
  await expect(results).toContainText('1 of 1 reclassified');
  await expect(results.locator(`tr[data-result-for="${eventId}"]`)).toContainText('Reversed and reposted as payment_received');
  await screenshot(page, 'ledger-reclassify-results');
  await page.getByRole('button', { name: 'Done' }).click();

  await expect(row).toContainText('Reversed');
  await expect(page.locator('[data-count="reversed"]')).toHaveText('1');
  await expect(page.getByRole('row', { name: /Payment received/ })).toContainText('Posted');
  await row.click();
  await expect(detail.locator('[data-entry-kind="reversal"]')).toContainText('Reversal');
  await expect(detail).toContainText('Reclassified: its entry was reversed');
  await screenshot(page, 'ledger-reversal');
  await detail.getByRole('button', { name: 'Open replacement' }).click();
  await expect(detail).toContainText('Replaces a reclassified event');
  await expect(detail.locator('[data-entry-kind="posting"]')).toContainText('Bank account');
  await page.getByRole('button', { name: 'Close' }).first().click();

  await page.getByRole('link', { name: 'Trial balance' }).click();
  const total = page.locator('tr[data-total="USD"]');
  // Debits = credits: invoice 1200 + its reversal 1200 + the payment 1200 + the bill 360.
  await expect(total.locator('td').nth(3)).toHaveText('3960.00');
  await expect(total.locator('td').nth(4)).toHaveText('3960.00');
  await expect(total.locator('td').last()).toHaveText('0.00');
  await expect(page.locator('tr[data-account-code="1100"] td').last()).toHaveText('0.00');
  await expect(page.locator('tr[data-account-code="1010"] td').last()).toHaveText('1200.00');
  await screenshot(page, 'ledger-trial-balance');

  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.locator('tr[data-account-code="1010"]')).toContainText('Bank account');
  await page.getByRole('button', { name: 'Add account' }).click();
  await page.getByLabel('Code').fill('6450');
  await page.getByLabel('Name').fill('Postage');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.locator('tr[data-account-code="6450"]')).toContainText('Postage');
  await screenshot(page, 'ledger-accounts');
  await page.locator('tr[data-account-code="6450"]').getByRole('button', { name: 'Archive' }).click();
  await expect(page.locator('tr[data-account-code="6450"]')).toHaveCount(0);
});

test('approve a held event in the UI', async ({ signedIn: { page, client }, server }) => {
  await client.put('/api/ledger/settings', { approvalThresholds: { USD: '500.00' } });
  const held = await client.post('/api/ledger/events', { type: 'expense_recorded', payload: { description: 'New laptop', currency: 'USD', netAmount: '1800.00' } });
  expect(held.body.postingStatus).toBe('pending_approval');
  await page.goto(`${server.url}/ledger/events`);
  await page.getByRole('tab', { name: /Pending approval/ }).click();
  const row = page.locator(`tr[data-event-id="${held.body.id}"]`);
  await expect(row).toContainText('Pending approval');
  await row.click();
  await page.getByRole('button', { name: 'Approve and post' }).click();
  await expect(page.getByTestId('ledger-event-detail')).toContainText('General expenses');
  await expect(page.getByTestId('ledger-event-detail')).toContainText('Posted');
  await screenshot(page, 'ledger-approved');
});

test('record an event by hand with the form its payload schema describes; JSON stays as an advanced option', async ({ signedIn: { page, client }, server }) => {
  await page.goto(`${server.url}/ledger/events`);
  await expect(page.getByText('No ledger events yet')).toBeVisible();
  await page.getByRole('button', { name: 'Record event' }).click();
  // What the wallet books by itself (a chain reset, relayer gas, private payments) is not offered.
  const offered = await page.getByLabel('Event type').locator('option').allTextContents();
  expect(offered).toContain('Payment received');
  for (const internal of ['Chain reset reversal', 'Relayer gas paid']) expect(offered).not.toContain(internal);
  await page.getByLabel('Event type').selectOption('payment_received');
  // Plain words tell a cash sale from settling an invoice.
  await expect(page.getByTestId('event-type-help')).toContainText('not invoiced first');
  await page.getByLabel('Event type').selectOption('expense_recorded');
  const form = page.locator('.ledger-event-form');
  // The example is a placeholder, never a value: untouched, the form books nothing.
  await expect(form.getByLabel(/^Description/)).toHaveValue('');
  await expect(form.getByLabel(/^Description/)).toHaveAttribute('placeholder', 'e.g. Design software, yearly plan');
  await screenshot(page, 'ledger-record-event');
  await page.getByRole('button', { name: 'Record and post' }).click();
  await expect(form.locator('#root_description__error')).toHaveText('Required');
  await expect(form.locator('#root_netAmount__error')).toHaveText('Required');
  await expect(form.locator('#root_currency__error')).toHaveText('Required');
  expect((await client.get('/api/ledger/events')).body.total).toBe(0);
  // An amount that is not one: refused in the form, nothing posted.
  await form.getByLabel(/^Currency/).fill('USD');
  await form.getByLabel(/^Expense account/).fill('6500');
  await form.getByLabel(/^Tax amount/).fill('28.80');
  await form.getByLabel(/^Net amount/).fill('12,50');
  await page.getByRole('button', { name: 'Record and post' }).click();
  // The server's check, shown under each field.
  await expect(form.locator('#root_netAmount__error')).toBeVisible();
  await expect(form.locator('#root_description__error')).toBeVisible();
  expect((await client.get('/api/ledger/events')).body.total).toBe(0);
  await form.getByLabel(/^Net amount/).fill('144.00');
  await form.getByLabel(/^Description/).fill('Design software');
  await page.getByRole('button', { name: 'Record and post' }).click();
  const detail = page.getByTestId('ledger-event-detail');
  await expect(detail).toContainText('Software and subscriptions');
  await expect(detail).toContainText('172.80 USD');
  await page.getByRole('button', { name: 'Close' }).first().click();

  await page.getByRole('button', { name: 'Record event' }).click();
  await page.getByRole('button', { name: 'Edit as JSON (advanced)' }).click();
  // Empty, with the example as its placeholder.
  await expect(page.getByLabel('Payload (JSON)')).toHaveValue('{}');
  await expect(page.getByLabel('Payload (JSON)')).toHaveAttribute('placeholder', /"invoiceNumber": "INV-1001"/);
  await page.getByLabel('Payload (JSON)').fill('{ "currency": ');
  await page.getByRole('button', { name: 'Record and post' }).click();
  await expect(page.getByText('The payload is not valid JSON')).toBeVisible();
});

test('statements: profit and loss and the balance sheet per currency, and the journal exported as CSV', async ({ signedIn: { page, client }, server }) => {
  await client.post('/api/ledger/events', { type: 'owner_contribution', payload: { ownerName: 'Ada', currency: 'USD', amount: '5000.00' } });
  await client.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-9', currency: 'USD', netAmount: '800.00', taxAmount: '160.00' } });
  await client.post('/api/ledger/events', { type: 'bill_received', payload: { billNumber: 'B-9', currency: 'EUR', netAmount: '50.00', taxAmount: '10.00' } });

  await page.goto(`${server.url}/ledger/statements`);
  const pl = page.getByRole('table', { name: 'Profit and loss USD' });
  await expect(pl.locator('tr[data-account-code="4000"]')).toContainText('800.00');
  await expect(pl.locator('tr[data-total="Net income"]')).toContainText('800.00');
  await expect(page.getByRole('table', { name: 'Profit and loss EUR' }).locator('tr[data-total="Net income"]')).toContainText('-50.00');
  const bs = page.getByRole('table', { name: 'Balance sheet USD' });
  await expect(bs.locator('tr[data-total="Assets"]')).toContainText('5960.00');
  await expect(bs.locator('tr[data-total="Liabilities and equity"]')).toContainText('5960.00');
  await expect(bs).toContainText('Current earnings (not yet closed)');
  await screenshot(page, 'ledger-statements');
  // A period before anything was posted: nothing in it.
  await page.getByLabel('To (UTC)').fill('2020-01-01');
  await expect(page.getByText('Nothing posted yet')).toBeVisible();

  await page.goto(`${server.url}/ledger/journal`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('journal.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('effective_at,entry_id,event_id,event_type,kind,description,line,account_code,account_name,currency,debit,credit,memo');
  expect(csv).toContain(',invoice_created,posting,');
});

test('reversing asks for confirmation and a reason, which the journal keeps', async ({ signedIn: { page, client }, server }) => {
  const posted = await client.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-R', currency: 'USD', netAmount: '10.00', taxAmount: '0.00' } });
  await page.goto(`${server.url}/ledger`);
  await page.locator(`tr[data-event-id="${posted.body.id}"]`).click();
  const detail = page.getByTestId('ledger-event-detail');
  await expect(detail).toBeVisible();
  await page.getByRole('button', { name: 'Reverse…' }).click();
  const confirm = page.getByRole('button', { name: 'Reverse event' });
  await expect(confirm).toBeDisabled();
  await page.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByTestId('reverse-confirm')).toHaveCount(0);
  expect((await client.get(`/api/ledger/events/${posted.body.id}`)).body.postingStatus).toBe('posted');
  await page.getByRole('button', { name: 'Reverse…' }).click();
  await page.getByLabel('Reason (required)').fill('Entered twice');
  await page.getByRole('button', { name: 'Reverse event' }).click();
  await expect(detail).toContainText('Reversed');
  await expect(detail).toContainText('Entered twice, by');
});

test('a correction that would leave a receivable below zero is refused, then done on purpose', async ({ signedIn: { page, client }, server }) => {
  const inv = await client.post('/api/ledger/events', { type: 'invoice_created', payload: { invoiceNumber: 'INV-P', currency: 'EUR', netAmount: '5000.00', taxAmount: '1050.00' } });
  await client.post('/api/ledger/events', { type: 'invoice_paid', payload: { invoiceNumber: 'INV-P', currency: 'EUR', amount: '6050.00' } });
  await page.goto(`${server.url}/ledger`);
  const row = page.locator(`tr[data-event-id="${inv.body.id}"]`);
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Reclassify selected (1)' }).click();
  await page.getByLabel('New event type').selectOption('payment_received');
  await page.getByRole('button', { name: 'Reclassify 1 event' }).click();
  const results = page.getByTestId('reclassify-results');
  await expect(results).toContainText('0 of 1 reclassified');
  await expect(results.locator('[data-impossible-balance="1100"]')).toContainText('Accounts receivable (1100) would be -6050.00 EUR');
  await page.getByRole('button', { name: 'Reclassify anyway (1)' }).click();
  await expect(results).toContainText('1 of 1 reclassified');
});

test('reclassify offers only types of the same side and asks for the fields the new type needs, prefilled', async ({ signedIn: { page, client }, server }) => {
  // Recorded as the wallet records it: the API refuses this type by hand.
  const sent = { body: postEvent(server.ctx, client.entityId, { type: 'private_payment_sent', payload: { currency: 'ETH/18', amount: '0.25', fee: '0.001', method: 'private_send' } }, { source: 'privacy' }).event };
  await page.goto(`${server.url}/ledger`);
  await page.locator(`tr[data-event-id="${sent.body.id}"]`).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Reclassify selected (1)' }).click();
  const typeSelect = page.getByLabel('New event type');
  // Money that went out can become another outgoing payment or a bill, never an invoice.
  const offered = await typeSelect.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(offered).toEqual(expect.arrayContaining(['expense_recorded', 'bill_paid']));
  expect(offered).not.toContain('invoice_created');
  expect(offered).not.toContain('payment_received');
  expect(offered).not.toContain('private_payment_sent');
  await typeSelect.selectOption('expense_recorded');
  const form = page.locator('.ledger-event-form');
  await expect(form.getByLabel(/^Currency/)).toHaveValue('ETH/18');
  await expect(form.getByLabel(/^Net amount/)).toHaveValue('0.25');
  await page.getByRole('button', { name: 'Reclassify 1 event' }).click();
  await expect(form.locator('#root_description__error')).toHaveText('Required');
  await form.getByLabel(/^Description/).fill('Hosting, one year');
  await form.getByLabel(/^Payment account/).fill('1310');
  await page.getByRole('button', { name: 'Reclassify 1 event' }).click();
  await expect(page.getByTestId('reclassify-results')).toContainText('1 of 1 reclassified');
  const replacement = (await client.get(`/api/ledger/events/${sent.body.id}`)).body.reclassifiedTo;
  expect((await client.get(`/api/ledger/events/${replacement}`)).body).toMatchObject({ type: 'expense_recorded', payload: { description: 'Hosting, one year', netAmount: '0.25', currency: 'ETH/18' } });
});
