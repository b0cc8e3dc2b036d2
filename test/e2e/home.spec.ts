import type { Page } from '@playwright/test';
import { test, expect, screenshot } from './fixtures.js';
import { expectAccessible } from './axe-helpers.js';
import { makePdf } from '../fixtures/pdf.js';
import type { SessionClient } from '../helpers/server.js';

async function upload(client: SessionClient, name: string): Promise<string> {
  const res = await client.request('POST', `/api/documents?name=${encodeURIComponent(name)}`, { raw: new Uint8Array(await makePdf(1)), headers: { 'content-type': 'application/pdf' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A sent request with one signer (and a signature field for them). */
async function sendRequest(client: SessionClient, title: string, signer: { name: string; email: string }): Promise<string> {
  const created = await client.post('/api/documents/signature-requests', { documentId: await upload(client, `${title}.pdf`), title, signers: [signer] });
  expect(created.status).toBe(201);
  const fields = await client.post(`/api/documents/signature-requests/${created.body.id}/fields`, { fields: [{ signerId: created.body.signers[0].id, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] });
  expect(fields.status).toBe(201);
  expect((await client.patch(`/api/documents/signature-requests/${created.body.id}`, { action: 'send' })).status).toBe(200);
  return created.body.id;
}

const card = (page: Page, id: string) => page.locator(`[data-attention="${id}"]`);
const count = (page: Page, id: string) => page.locator(`[data-count="${id}"]`);

test('home: what needs my attention, with counts and links to each', async ({ server, signedIn: { page, client } }) => {
  // Signature requests: one waiting for me, one for someone else.
  const mine = await sendRequest(client, 'Board resolution', { name: client.user.name, email: client.email });
  await sendRequest(client, 'Supplier contract', { name: 'Sam Supplier', email: 'sam@example.com' });
  // Tickets: two open ones assigned to me, one resolved, one assigned to nobody.
  const t1 = await client.post('/api/helpdesk/tickets', { subject: 'Printer on fire', assignedTo: client.user.id });
  await client.post('/api/helpdesk/tickets', { subject: 'Invoice will not open', assignedTo: client.user.id, priority: 'high' });
  const done = await client.post('/api/helpdesk/tickets', { subject: 'Password reset', assignedTo: client.user.id });
  expect((await client.patch(`/api/helpdesk/tickets/${done.body.id}`, { status: 'resolved' })).status).toBe(200);
  await client.post('/api/helpdesk/tickets', { subject: 'Nobody’s ticket' });
  // The ledger: one event held for approval, one posted.
  await client.put('/api/ledger/settings', { approvalThresholds: { USD: '500.00' } });
  const held = await client.post('/api/ledger/events', { type: 'expense_recorded', payload: { description: 'New laptop', currency: 'USD', netAmount: '1800.00' } });
  expect(held.body.postingStatus).toBe('pending_approval');
  await client.post('/api/ledger/events', { type: 'expense_recorded', payload: { description: 'Pens', currency: 'USD', netAmount: '12.00' } });
  // A notification for me.
  expect((await client.post('/api/notifications', { userId: client.user.id, title: 'Quarter closes Friday', link: '/ledger/statements' })).status).toBe(201);
  const unread = (await client.get('/api/notifications/unread-count')).body.unread as number;
  expect(unread).toBeGreaterThanOrEqual(1);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(count(page, 'signatures')).toHaveText('1');
  await expect(count(page, 'tickets')).toHaveText('2');
  await expect(count(page, 'approvals')).toHaveText('1');
  await expect(count(page, 'unread')).toHaveText(String(unread));
  await expect(card(page, 'signatures').getByRole('link', { name: 'Board resolution' })).toBeVisible();
  await expect(card(page, 'signatures')).not.toContainText('Supplier contract');
  await expect(card(page, 'tickets').getByRole('link')).toHaveText(['Invoice will not open', 'Printer on fire', 'All tickets']);
  await expect(card(page, 'approvals').getByRole('link', { name: /Expense recorded · USD 1800\.00/ })).toBeVisible();
  await expect(card(page, 'unread').getByRole('button', { name: /Quarter closes Friday/ })).toBeVisible();
  await expectAccessible(page, 'home with things to do');
  await screenshot(page, 'home');

  // Each item links to where it is dealt with.
  await card(page, 'signatures').getByRole('link', { name: 'Board resolution' }).click();
  await expect(page).toHaveURL(`${server.url}/documents/requests/${mine}`);
  await page.goBack();
  await card(page, 'tickets').getByRole('link', { name: 'Printer on fire' }).click();
  await expect(page).toHaveURL(`${server.url}/helpdesk/tickets/${t1.body.id}`);
  await expect(page.getByRole('heading', { name: 'Printer on fire' })).toBeVisible();
  await page.goBack();
  await card(page, 'approvals').getByRole('link', { name: /Expense recorded/ }).click();
  await expect(page).toHaveURL(new RegExp(`/ledger/events\\?status=pending_approval&event=${held.body.id}$`));
  await expect(page.getByRole('button', { name: 'Approve and post' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve and post' }).click();
  await expect(page.getByTestId('ledger-event-detail')).toContainText('Posted');
  await page.goto(server.url);
  await expect(count(page, 'approvals')).toHaveText('0');
  await expect(card(page, 'approvals')).toContainText('No ledger event is waiting for approval.');
  // Opening a notification marks it read and follows its link.
  await card(page, 'unread').getByRole('button', { name: /Quarter closes Friday/ }).click();
  await expect(page).toHaveURL(`${server.url}/ledger/statements`);
  await page.goBack();
  await expect(count(page, 'unread')).toHaveText(String(unread - 1));
  await card(page, 'tickets').getByRole('link', { name: 'All tickets' }).click();
  await expect(page).toHaveURL(`${server.url}/helpdesk`);
});

test('first steps for a new business tick off as they are done, from the real data', async ({ server, signedIn: { page, client } }) => {
  const steps = page.locator('[data-first-steps]');
  const step = (key: string) => steps.locator(`[data-step="${key}"]`);
  await expect(steps.getByText('0 of 6 done')).toBeVisible();
  for (const key of ['document', 'signature', 'support', 'member', 'ledger', 'integration']) await expect(step(key)).toHaveAttribute('data-done', 'false');
  await screenshot(page, 'home-new-business');

  // Do five of the six through the API.
  await upload(client, 'Lease.pdf');
  expect((await client.post('/api/helpdesk/categories', { name: 'Billing' })).status).toBe(201);
  expect((await client.post(`/api/entities/${client.entityId}/members`, { email: 'grace@example.com', role: 'member' })).status).toBe(201);
  expect((await client.post('/api/ledger/events', { type: 'expense_recorded', payload: { description: 'Pens', currency: 'USD', netAmount: '12.00' } })).status).toBe(201);
  expect((await client.post('/api/webhook-subscriptions', { url: 'https://hooks.example.com/bureau', events: ['ticket.created'] })).status).toBe(201);
  await page.reload();
  await expect(steps.getByText('5 of 6 done')).toBeVisible();
  for (const key of ['document', 'support', 'member', 'ledger', 'integration']) await expect(step(key)).toHaveAttribute('data-done', 'true');
  await expect(step('signature')).toHaveAttribute('data-done', 'false');
  await expect(step('document')).toContainText('Done');
  await expectAccessible(page, 'home first steps');

  // A draft request is not "sent": the step stays open until one goes out.
  const doc = await upload(client, 'Offer.pdf');
  const draft = await client.post('/api/documents/signature-requests', { documentId: doc, title: 'Offer letter', signers: [{ name: 'Kim', email: 'kim@example.com' }] });
  await page.reload();
  await expect(steps.getByText('5 of 6 done')).toBeVisible();
  await steps.getByRole('link', { name: 'Send a document for signature' }).click();
  await expect(page).toHaveURL(`${server.url}/documents/requests`);
  await client.post(`/api/documents/signature-requests/${draft.body.id}/fields`, { fields: [{ signerId: draft.body.signers[0].id, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] });
  expect((await client.patch(`/api/documents/signature-requests/${draft.body.id}`, { action: 'send' })).status).toBe(200);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(steps.getByText('6 of 6 done')).toBeVisible();
});

test('a viewer sees only what their role allows, and on a phone the home page fits the screen', async ({ server, signedIn: { client }, browser }) => {
  const viewer = await server.signup({ name: 'Val Viewer', entityName: 'Val’s own' });
  expect((await client.post(`/api/entities/${client.entityId}/members`, { email: viewer.email, role: 'viewer' })).status).toBe(201);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = viewer.cookie.split('=');
  await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
  await context.addInitScript((id) => localStorage.setItem('bureau.entityId', id), client.entityId);
  const page = await context.newPage();
  await page.goto(server.url);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.locator('#entity-select')).toHaveValue(client.entityId);
  // Viewers may read documents, tickets and notifications, but not approve, nor take first steps.
  await expect(count(page, 'signatures')).toHaveText('0');
  await expect(count(page, 'tickets')).toHaveText('0');
  await expect(count(page, 'unread')).toBeVisible();
  await expect(card(page, 'approvals')).toHaveCount(0);
  await expect(page.locator('[data-first-steps]')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await screenshot(page, 'home-phone-viewer');
  await context.close();
});
