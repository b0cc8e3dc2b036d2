import { makeClient } from '../helpers/server.js';
import { test, expect, screenshot } from './fixtures.js';

test('create a ticket, reply, change status, and see the notification bell update live', async ({ server, signedIn: { page, client } }) => {
  await page.getByRole('link', { name: 'Helpdesk' }).click();
  await expect(page.getByRole('heading', { name: 'Helpdesk' })).toBeVisible();
  await expect(page.getByText('No tickets yet')).toBeVisible();

  await page.getByRole('button', { name: 'New ticket' }).click();
  const form = page.getByRole('dialog', { name: 'New ticket' });
  await form.getByLabel('Subject').fill('Invoice PDF will not open');
  await form.getByLabel('Description').fill('Acrobat says the file is damaged.');
  await form.getByLabel('Priority').selectOption('high');
  await form.getByLabel('Contact name').fill('Carla Customer');
  await form.getByLabel('Contact e-mail').fill('carla@example.com');
  await screenshot(page, 'helpdesk-new-ticket');
  await form.getByRole('button', { name: 'Create ticket' }).click();

  await expect(page.getByRole('heading', { name: 'Invoice PDF will not open' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('new');
  await page.getByLabel('Reply to the customer').fill('Thanks Carla, could you send us the file?');
  await page.getByRole('button', { name: 'Send reply' }).click();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Thanks Carla, could you send us the file?')).toBeVisible();
  await expect(timeline.getByText(/Status changed from new to open/)).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('open');

  await page.getByLabel('Internal note').check();
  await page.getByLabel('Internal note (members only)').fill('Probably the old PDF renderer.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.locator('[data-kind="note"]').getByText('Probably the old PDF renderer.')).toBeVisible();

  await page.getByLabel('Status').selectOption('pending');
  await expect(timeline.getByText(/Status changed from open to pending/)).toBeVisible();
  await screenshot(page, 'helpdesk-ticket');

  // A colleague assigns the ticket to us: the bell counts it without a reload (SSE).
  const colleague = await server.signup({ name: 'Colin Colleague' });
  expect((await client.post(`/api/entities/${client.entityId}/members`, { email: colleague.email, role: 'member' })).status).toBe(201);
  const asColleague = makeClient(server.url, { cookie: colleague.cookie, origin: server.url, 'x-entity-id': client.entityId });
  const ticketId = page.url().split('/').pop()!;
  expect((await asColleague.patch(`/api/helpdesk/tickets/${ticketId}`, { assignedTo: client.user.id })).status).toBe(200);
  await expect(page.getByTestId('unread-count')).toHaveText('1');
  await page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByText(/was assigned to you/)).toBeVisible();
  await screenshot(page, 'notifications-bell');
  await panel.getByText(/was assigned to you/).click();
  await expect(page.getByTestId('unread-count')).toHaveCount(0);

  await page.getByRole('link', { name: '← All tickets' }).click();
  await expect(page.getByRole('row', { name: /Invoice PDF will not open/ })).toBeVisible();
  await page.getByLabel('Search tickets').fill('nothing like this');
  await expect(page.getByText('No tickets match')).toBeVisible();
  await page.getByLabel('Search tickets').fill('invoice');
  await expect(page.getByRole('row', { name: /Invoice PDF will not open/ })).toBeVisible();
  await page.getByLabel('Assigned to me').check();
  await expect(page.getByRole('row', { name: /Invoice PDF will not open/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Pending' }).click();
  await expect(page.getByRole('row', { name: /Invoice PDF will not open/ })).toBeVisible();
  await screenshot(page, 'helpdesk-list');

  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByText(/was assigned to you/)).toBeVisible();
  await screenshot(page, 'notifications-page');
});
