import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startTestServer, type SessionClient, type TestServer } from '../helpers/server.js';

export const SCREENSHOTS = path.resolve('test/e2e/screenshots');
const rendererDir = path.resolve('out/renderer');

interface Fixtures {
  /** A fresh server serving the built UI (run `npm run build:renderer` first). */
  server: TestServer;
  /** A page signed in as a new user with a new entity (session created through the API). */
  signedIn: { page: Page; client: SessionClient };
}

export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    if (!fs.existsSync(path.join(rendererDir, 'index.html'))) throw new Error('Build the UI first: npm run build:renderer');
    const server = await startTestServer({ rendererDir, backgroundLoops: true });
    await use(server);
    await server.close();
  },
  signedIn: async ({ server, page }, use) => {
    const client = await server.signup();
    const [name, value] = client.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
    await page.goto(server.url);
    await use({ page, client });
  },
});

/** Saves a full-page screenshot for review (the folder is git-ignored). */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export { expect };
