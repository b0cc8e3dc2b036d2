// A signer opens a link that points at the hosted instance and signs there in Chromium: the
// hosted instance serves the same signing screen as a device, from its mirror of the entity.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { freePort } from '../helpers/net.js';
import { test as base, expect, screenshot } from './fixtures.js';
import { sentRequest } from './signing-helpers.js';

const test = base.extend<{ hosted: RunningHosted }>({
  hosted: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-e2e-hosted-signing-'));
    const port = await freePort();
    const hosted = await startHosted({ port, dataDir, logLevel: 'silent', publicUrl: `http://127.0.0.1:${port}`, rendererDir: path.resolve('out/renderer') });
    await use(hosted);
    await hosted.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  },
});

test('a signer signs on the hosted signing page; the device completes the request when it syncs', async ({ server, hosted, signedIn: { client }, page }) => {
  const linked = await client.post('/api/sync/link', { hostedUrl: hosted.url, email: client.email, password: client.password });
  expect(linked.status).toBe(201);
  const { requestId, url } = await sentRequest(client, [{ type: 'signature', page: 1, x: 0.1, y: 0.75, width: 0.3, height: 0.07 }]);
  expect(url.startsWith(`${hosted.url}/sign/`)).toBe(true);
  expect((await client.post('/api/sync/run', {})).status).toBe(200);

  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Flat lease' })).toBeVisible();
  await expect(page.locator('.pdf-page[data-rendered]')).toHaveCount(1);
  await page.getByRole('button', { name: /^Signature \(required\)/ }).click();
  await page.getByRole('tab', { name: 'Type' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('button', { name: 'Finish signing' }).click();
  await expect(page.getByText('The others have been notified.')).toBeVisible();
  await screenshot(page, 'signing-hosted-done');

  // The device syncs the signature down and completes the request (its background loops run).
  await expect
    .poll(
      async () => {
        await client.post('/api/sync/run', {});
        return (await client.get(`/api/documents/signature-requests/${requestId}`)).body.status;
      },
      { timeout: 30_000 },
    )
    .toBe('completed');
  const trail = (await client.get(`/api/documents/signature-requests/${requestId}/audit-trail`)).body as { type: string; userAgent: string | null }[];
  expect(trail.find((e) => e.type === 'signed')?.userAgent).toMatch(/Chrome/);
  void server;
});
