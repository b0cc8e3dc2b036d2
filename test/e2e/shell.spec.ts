import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { makePdf } from '../fixtures/pdf.js';
import { expectAccessible } from './axe-helpers.js';
import type { SessionClient } from '../helpers/server.js';

// The app shell: narrow screens (drawer, no sideways scrolling), keyboard (skip link, dialogs),
// document titles, filters in the URL, and the first run.

const PHONE = { width: 390, height: 844 };

/** Some of everything, so lists and tables have rows to be wide with. */
async function seed(client: SessionClient) {
  const upload = await client.request('POST', '/api/documents?name=Very%20long%20services%20agreement%20name%20for%20overflow.pdf', { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  expect(upload.status).toBe(201);
  const request = await client.post('/api/documents/signature-requests', { documentId: upload.body.id, title: 'Services agreement', signers: [{ name: 'Kim Tenant', email: 'kim@example.com' }] });
  expect(request.status).toBe(201);
  const ticket = await client.post('/api/helpdesk/tickets', { subject: 'The invoice PDF attached to last month’s statement will not open', contactName: 'Carla Customer', contactEmail: 'carla.customer@example.com', assignedTo: client.user.id });
  expect(ticket.status).toBe(201);
  await client.put('/api/ledger/settings', { approvalThresholds: { USD: '500.00' } });
  for (const payload of [
    { invoiceNumber: 'INV-7', customerName: 'Acme Ltd', currency: 'USD', netAmount: '1000.00', taxAmount: '200.00' },
    { invoiceNumber: 'INV-8', customerName: 'Globex Corporation', currency: 'USD', netAmount: '100.00', taxAmount: '20.00' },
  ])
    expect((await client.post('/api/ledger/events', { type: 'invoice_created', payload, source: 'billing-system-integration' })).status).toBe(201);
  const hook = await client.post('/api/webhook-subscriptions', { url: 'https://hooks.example.com/bureau/receiver/with/a/long/path', description: 'CRM', events: ['ticket.created'] });
  expect(hook.status).toBe(201);
  expect((await client.post('/api/settings/api-keys', { name: 'Accounting sync', scopes: ['read:documents', 'read:helpdesk', 'read:ledger'] })).status).toBe(201);
  expect((await client.post('/api/notifications', { userId: client.user.id, title: 'Welcome to Bureau', body: 'A notification with a body long enough to need truncating on a phone screen.' })).status).toBe(201);
  return { ticketId: ticket.body.id as string, requestId: request.body.id as string, subscriptionId: hook.body.id as string };
}

/** Waits for the page's heading and for its loading indicators to be gone. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
}

/** The page's sideways overflow, and the outermost elements sticking out past the viewport (to say what to fix). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const culprits: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= root.clientWidth + 0.5) continue;
        // Only the outermost: its parent fits.
        const p = el.parentElement?.getBoundingClientRect();
        if (p && p.right > root.clientWidth + 0.5) continue;
        culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} right=${Math.round(r.right)}`);
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: culprits.slice(0, 5) };
  });
}

test('nothing scrolls sideways at 390 px on any page', async ({ server, signedIn: { page, client } }) => {
  test.setTimeout(120_000);
  const { ticketId, requestId, subscriptionId } = await seed(client);
  await page.setViewportSize(PHONE);
  await page.goto(server.url);
  await settled(page);

  // Every page of the main navigation and every settings section, plus the detail pages.
  await page.getByRole('button', { name: 'Open menu' }).click();
  const navTargets = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/settings`);
  await settled(page);
  const settingsTargets = await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(navTargets.length).toBeGreaterThan(5);
  expect(settingsTargets.length).toBeGreaterThan(2);
  const paths = [
    ...navTargets,
    '/documents/requests',
    `/documents/requests/${requestId}`,
    `/helpdesk/tickets/${ticketId}`,
    '/ledger/events',
    '/ledger/journal',
    '/ledger/trial-balance',
    '/ledger/statements',
    '/ledger/accounts',
    ...settingsTargets,
    `/settings/webhooks/${subscriptionId}`,
  ];

  const problems: string[] = [];
  for (const path of [...new Set(paths)]) {
    await page.goto(`${server.url}${path}`);
    await settled(page);
    // A PDF is laid out once rendered.
    await expect(page.getByText('Rendering PDF…')).toHaveCount(0);
    const o = await overflow(page);
    if (o.scrollWidth > o.clientWidth) {
      problems.push(`${path}: scrollWidth ${o.scrollWidth} > ${o.clientWidth} (${o.culprits.join('; ')})`);
      await screenshot(page, `overflow-${path.replace(/\W+/g, '-')}`);
    }
  }
  expect(problems, problems.join('\n')).toEqual([]);
  await page.goto(`${server.url}/ledger/events`);
  await settled(page);
  await screenshot(page, 'phone-ledger');
});

test('below 900 px the sidebar is a drawer: it traps focus and closes on Escape and on navigation', async ({ signedIn: { page } }) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  // Wide: the sidebar shows and there is no menu button.
  await expect(nav.getByRole('link', { name: 'Ledger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

  await page.setViewportSize({ width: 880, height: 800 });
  await expect(nav.getByRole('link', { name: 'Ledger' })).toBeHidden();
  const menu = page.getByRole('button', { name: 'Open menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  const inDrawer = () => page.evaluate(() => Boolean(document.activeElement?.closest('#sidebar')));
  expect(await inDrawer()).toBe(true);
  await expectAccessible(page, 'drawer open');
  await screenshot(page, 'drawer-open');

  // Tab and Shift+Tab cycle inside the drawer, never reaching the page behind it.
  const stops = await drawer.evaluate((el) => el.querySelectorAll('a[href], button').length);
  const seen = new Set<string>();
  for (let i = 0; i < stops + 2; i++) {
    await page.keyboard.press('Tab');
    expect(await inDrawer()).toBe(true);
    seen.add(await page.evaluate(() => document.activeElement?.textContent ?? ''));
  }
  expect(seen.size).toBe(stops);
  for (let i = 0; i < stops + 2; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await inDrawer()).toBe(true);
  }

  // Escape closes it and gives focus back to the menu button.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // Following a link closes it; the new page's content has focus.
  await menu.click();
  await drawer.getByRole('link', { name: 'Ledger' }).click();
  await expect(page).toHaveURL(/\/ledger\/events$/);
  await expect(drawer).toBeHidden();
  await expect(page.locator('#main-content')).toBeFocused();

  // The backdrop closes it too.
  await menu.click();
  await expect(drawer).toBeVisible();
  await page.mouse.click(860, 400);
  await expect(drawer).toBeHidden();
});

test('a skip link is the first thing Tab reaches and moves focus to the main content', async ({ signedIn: { page } }) => {
  await settled(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await screenshot(page, 'skip-link');
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // The next Tab goes into the page's content, not back to the sidebar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#main-content')))).toBe(true);
});

test('dialogs keep focus inside while open and give it back to the opener', async ({ server, signedIn: { page, client } }) => {
  await page.goto(`${server.url}/ledger/accounts`);
  await settled(page);
  const opener = page.getByRole('button', { name: 'Add account' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Add account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Code')).toBeFocused();
  const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
  const focusedName = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
    });

  // Forward: Code → Name → Type → Cancel → (Add is disabled) → Close, then round again.
  const forward: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await inDialog()).toBe(true);
    forward.push(await focusedName());
  }
  expect(forward).toEqual(['Name', 'Type', 'Cancel', 'Close', 'Code', 'Name', 'Type', 'Cancel']);
  // Backward from the first control wraps to the last.
  await dialog.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await inDialog()).toBe(true);
  }
  // Once filled in, "Add" joins the cycle.
  await dialog.getByLabel('Code').fill('6450');
  await dialog.getByLabel('Name').fill('Software');
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Add', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();

  // Escape closes it; focus is back on the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // So does Cancel, opened from the keyboard.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // A ledger event opens from its row by keyboard, and focus comes back to it.
  const posted = await client.post('/api/ledger/events', { type: 'expense_recorded', payload: { description: 'Pens', currency: 'USD', netAmount: '12.00' } });
  await page.goto(`${server.url}/ledger/events`);
  const open = page.locator(`tr[data-event-id="${posted.body.id}"]`).getByRole('button', { name: 'Expense recorded' });
  await open.focus();
  await page.keyboard.press('Enter');
  const detail = page.getByRole('dialog', { name: 'Expense recorded' });
  await expect(detail).toBeVisible();
  expect(await inDialog()).toBe(true);
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(open).toBeFocused();
});

test('each page has its own document title', async ({ server, signedIn: { page, client } }) => {
  const entity = (await client.get('/api/entities')).body[0].name as string;
  await settled(page);
  await expect(page).toHaveTitle(`Home · ${entity} · Bureau`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Helpdesk' }).click();
  await expect(page).toHaveTitle(`Helpdesk · ${entity} · Bureau`);
  await nav.getByRole('link', { name: 'Ledger' }).click();
  await expect(page).toHaveTitle(`Events · Ledger · ${entity} · Bureau`);
  await page.getByRole('navigation', { name: 'Ledger' }).getByRole('link', { name: 'Trial balance' }).click();
  await expect(page).toHaveTitle(`Trial balance · Ledger · ${entity} · Bureau`);
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveTitle(`Webhooks · Settings · ${entity} · Bureau`);
  await page.goto(`${server.url}/documents`);
  await expect(page).toHaveTitle(`Documents · ${entity} · Bureau`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveTitle('Sign in · Bureau');
});

test('ledger, notification and webhook filters live in the URL: reload and Back keep them', async ({ server, signedIn: { page, client } }) => {
  const { subscriptionId } = await seed(client);

  // Ledger events: status tab and type filter.
  await page.goto(`${server.url}/ledger/events`);
  await settled(page);
  await page.getByRole('tab', { name: /Pending approval/ }).click();
  await expect(page).toHaveURL(/[?&]status=pending_approval/);
  await page.getByLabel('Type').selectOption('invoice_created');
  await expect(page).toHaveURL(/[?&]type=invoice_created/);
  await expect(page.locator('tr[data-event-id]')).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole('tab', { name: /Pending approval/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Type')).toHaveValue('invoice_created');
  await expect(page.locator('tr[data-event-id]')).toHaveCount(1);
  // The open event is in the URL too.
  await page.locator('tr[data-event-id]').click();
  await expect(page).toHaveURL(/[?&]event=[0-9a-f-]{36}/);
  await page.reload();
  await expect(page.getByTestId('ledger-event-detail')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/event=/);
  // Away to the journal and Back: the filters are still there.
  await page.getByRole('navigation', { name: 'Ledger' }).getByRole('link', { name: 'Journal' }).click();
  await expect(page).toHaveURL(/\/ledger\/journal$/);
  await page.goBack();
  await expect(page.getByRole('tab', { name: /Pending approval/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Type')).toHaveValue('invoice_created');
  // Back once more: the type filter goes, the status stays.
  await page.goBack();
  await expect(page.getByLabel('Type')).toHaveValue('');
  await expect(page.getByRole('tab', { name: /Pending approval/ })).toHaveAttribute('aria-selected', 'true');

  // Ledger reports: the dates.
  await page.goto(`${server.url}/ledger/trial-balance?asOf=2020-01-31`);
  await expect(page.getByLabel('As of (end of day, UTC)')).toHaveValue('2020-01-31');
  await expect(page.getByText('Nothing posted yet')).toBeVisible();

  // Notifications: the unread tab.
  await page.goto(`${server.url}/notifications`);
  await settled(page);
  await page.getByRole('tab', { name: 'Unread' }).click();
  await expect(page).toHaveURL(/\/notifications\?filter=unread$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Unread' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');

  // Webhooks: the delivery log's status filter.
  await page.goto(`${server.url}/settings/webhooks/${subscriptionId}`);
  await page.getByRole('tab', { name: 'Failed' }).click();
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expect(page.getByText('No failed deliveries')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Failed' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
});

test('a fresh install opens set-up; once an account exists, sign-in', async ({ server, page }) => {
  expect((await server.anon.get('/api/auth/setup')).body).toEqual({ setupNeeded: true });
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Set up Bureau' })).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page).toHaveTitle('Set up Bureau · Bureau');
  // Nobody to sign in as yet: no "Sign in" link, but joining from another device is offered.
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Join from another device' })).toBeVisible();
  await screenshot(page, 'first-run');

  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Password').fill('analytical engine 1843');
  await page.getByLabel('Business name').fill('Analytical Ltd');
  await page.getByRole('button', { name: 'Create account' }).click();
  // Straight to the home page.
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/`);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await screenshot(page, 'login');
});
