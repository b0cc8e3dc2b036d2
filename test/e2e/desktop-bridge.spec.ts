// The desktop window's preload bridge (`window.bureau`, main/preload.ts) as the UI uses it: a
// notification that arrives while the window is in the background shows natively, and a
// notification's outside link opens in the user's browser. In Chromium the bridge is a recorder
// with the same shape; the IPC behind it is tested in test/unit/desktop-shell.test.ts.
import { expect, test } from './fixtures';

test('native notification while away, outside links through the bridge', async ({ server, signedIn: { page, client } }) => {
  await page.addInitScript(() => {
    const calls: unknown[][] = [];
    Object.assign(window, { bridgeCalls: calls });
    Object.assign(window, {
      bureau: {
        version: async () => '0.0.0-test',
        notify: async (title: string, body: string) => void calls.push(['notify', title, body]),
        openExternal: async (url: string) => void calls.push(['openExternal', url]),
      },
    });
    // Another application has the focus.
    document.hasFocus = () => false;
  });
  await page.goto(server.url);
  const calls = () => page.evaluate(() => (window as unknown as { bridgeCalls: unknown[][] }).bridgeCalls);
  // The count shows 1 once the live stream is connected (its first event carries the count), so the
  // next notification arrives through the stream.
  expect((await client.post('/api/notifications', { userId: client.user.id, title: 'Welcome' })).status).toBe(201);
  await expect(page.getByRole('button', { name: /Notifications, 1 unread/ })).toBeVisible();

  expect((await client.post('/api/notifications', { userId: client.user.id, title: 'Invoice paid', body: 'INV-7 was paid', link: 'https://pay.example.com/receipts/7' })).status).toBe(201);
  await expect(page.getByRole('button', { name: /Notifications, 2 unread/ })).toBeVisible();
  await expect.poll(calls).toContainEqual(['notify', 'Invoice paid', 'INV-7 was paid']);

  await page.getByRole('button', { name: /Notifications, 2 unread/ }).click();
  await page.getByText('Invoice paid').click();
  await expect.poll(calls).toContainEqual(['openExternal', 'https://pay.example.com/receipts/7']);
  expect(page.url().startsWith(server.url)).toBe(true);
});
