import { makeClient } from '../helpers/server.js';
import { test, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';

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
  // Without a support mailbox (Settings → Helpdesk e-mail) nothing is e-mailed, and the reply box says so.
  await expect(page.getByTestId('reply-hint')).toContainText('No support mailbox is set up');
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
  // Every word of the ticket, not only its subject: one of our replies, and an internal note
  // (each after a search that shows nothing, so the row is the new answer's).
  for (const words of ['could you send', 'renderer']) {
    await page.getByLabel('Search tickets').fill('nothing like this');
    await expect(page.getByText('No tickets match')).toBeVisible();
    await page.getByLabel('Search tickets').fill(words);
    await expect(page.getByRole('row', { name: /Invoice PDF will not open/ })).toBeVisible();
  }
  await page.getByLabel('Search tickets').fill('invoice');
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

test('categories are managed in a dialog; contact search, tabs and filters live in the URL', async ({ server, signedIn: { page, client } }) => {
  const create = async (body: Record<string, unknown>) => {
    const res = await client.post('/api/helpdesk/tickets', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; ticketNumber: string };
  };
  await page.goto(`${server.url}/helpdesk`);
  await page.getByRole('button', { name: 'Categories' }).click();
  const dialog = page.getByRole('dialog', { name: 'Categories' });
  await expect(dialog.getByText('No categories yet')).toBeVisible();
  await dialog.getByLabel('New category').fill('Billing');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await dialog.getByLabel('New category').fill('Bugs');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByLabel('Name of category Bugs')).toBeVisible();
  // A taken name is refused, case-insensitively, with the server's reason.
  await dialog.getByLabel('New category').fill('billing');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A category with this name already exists');
  await dialog.getByLabel('New category').fill('');
  // Rename "Bugs" to "Defects".
  const bugs = dialog.getByRole('listitem').filter({ has: page.getByLabel('Name of category Bugs') });
  await bugs.getByLabel('Name of category Bugs').fill('Defects');
  await bugs.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog.getByLabel('Name of category Defects')).toHaveValue('Defects');
  const categories = (await client.get('/api/helpdesk/categories')).body as { id: string; name: string }[];
  expect(categories.map((c) => c.name)).toEqual(['Billing', 'Defects']);
  const billing = categories.find((c) => c.name === 'Billing')!;

  // A category in use is not deleted, and the dialog says why.
  await create({ subject: 'Charged twice', channel: 'email', contactName: 'Dora Diaz', contactEmail: 'dora@example.org', categoryId: billing.id });
  await create({ subject: 'Crash on export', channel: 'web', contactName: 'Emil Ek', contactEmail: 'emil@example.net', priority: 'high' });
  page.on('dialog', (d) => void d.accept());
  const billingRow = dialog.getByRole('listitem').filter({ has: page.getByLabel('Name of category Billing') });
  await billingRow.getByRole('button', { name: 'Delete' }).click();
  await expect(billingRow.getByRole('alert')).toHaveText('Category is used by 1 ticket; move them to another category first');
  const defectsRow = dialog.getByRole('listitem').filter({ has: page.getByLabel('Name of category Defects') });
  await defectsRow.getByRole('button', { name: 'Delete' }).click();
  await expect(defectsRow).toHaveCount(0);
  await screenshot(page, 'helpdesk-categories');
  await expectAccessible(page, 'categories dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.reload();

  // The contact field matches name or e-mail, separately from the subject search.
  await expectAccessible(page, 'helpdesk list with filters');
  await page.getByLabel('Search contact').fill('example.org');
  await expect(page.getByRole('row', { name: /Charged twice/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Crash on export/ })).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]contact=example\.org/);
  await page.getByLabel('Search contact').fill('emil');
  await expect(page.getByRole('row', { name: /Crash on export/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Charged twice/ })).toHaveCount(0);
  await page.getByLabel('Search contact').fill('');
  await expect(page.getByRole('row', { name: /Charged twice/ })).toBeVisible();

  // Tab, priority and category go into the URL; reload and back keep them.
  await page.getByRole('tab', { name: 'New' }).click();
  await page.getByLabel('Priority filter').selectOption('high');
  await expect(page).toHaveURL(/status=new/);
  await expect(page).toHaveURL(/priority=high/);
  await expect(page.getByRole('row', { name: /Crash on export/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Charged twice/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'New' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Priority filter')).toHaveValue('high');
  await expect(page.getByRole('row', { name: /Crash on export/ })).toBeVisible();
  await page.getByRole('row', { name: /Crash on export/ }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Crash on export' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Priority filter')).toHaveValue('high');
  await expect(page.getByRole('tab', { name: 'New' })).toHaveAttribute('aria-selected', 'true');
  // "All tickets" on a ticket returns to the same filtered list.
  await page.getByRole('row', { name: /Crash on export/ }).getByRole('link').click();
  await page.getByRole('link', { name: '← All tickets' }).click();
  await expect(page).toHaveURL(/status=new/);
  await expect(page.getByLabel('Priority filter')).toHaveValue('high');
  // Back steps through the filter changes.
  await page.getByLabel('Priority filter').selectOption('');
  await page.getByLabel('Category filter').selectOption({ label: 'Billing' });
  await expect(page.getByRole('row', { name: /Charged twice/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Crash on export/ })).toHaveCount(0);
  await page.goBack();
  await expect(page.getByLabel('Category filter')).toHaveValue('');
  await expect(page.getByRole('row', { name: /Crash on export/ })).toBeVisible();
});
