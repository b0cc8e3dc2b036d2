import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { test, expect, screenshot } from './fixtures.js';

test('create a webhook endpoint, see the secret once, and a signed delivery in its log', async ({ signedIn: { page, client } }) => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bureau`;
  try {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByText('No endpoints yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('Local CRM');
    await page.getByLabel(/All events/).uncheck();
    await page.getByLabel('ticket.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();
    const secret = (await page.getByLabel('Signing secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row', { name: /Local CRM/ })).toBeVisible();
    await screenshot(page, 'webhooks-list');

    expect((await client.post('/api/helpdesk/tickets', { subject: 'Webhook me' })).status).toBe(201);
    await page.getByRole('row', { name: /Local CRM/ }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(log.getByRole('row', { name: /ticket\.created.*succeeded/ })).toBeVisible({ timeout: 1000 });
    }).toPass();
    const payload = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>) as { type: string };
    expect(payload.type).toBe('ticket.created');

    await log.getByRole('row', { name: /ticket\.created/ }).click();
    await expect(page.getByText('attempt 1 (automatic)')).toBeVisible();
    await log.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('attempt 2 (manual)')).toBeVisible();
    expect(received).toHaveLength(2);
    expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
    await screenshot(page, 'webhooks-deliveries');

    // Send test event: a signed webhook.test although the endpoint only subscribes to ticket.created.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText(/Test event delivered: the endpoint answered HTTP 200/)).toBeVisible();
    await expect(log.getByRole('row', { name: /webhook\.test.*succeeded/ })).toBeVisible();
    expect(received).toHaveLength(3);
    await screenshot(page, 'webhooks-test-event');
    expect((new Webhook(secret).verify(received[2].body, received[2].headers as Record<string, string>) as { type: string }).type).toBe('webhook.test');

    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByText(/Disabled .*Disabled by a member/)).toBeVisible();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
