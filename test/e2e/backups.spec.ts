import fs from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { expect, screenshot, test } from './fixtures.js';

const PASSPHRASE = 'four unrelated words here';
const rendererDir = path.resolve('out/renderer');

test.setTimeout(180_000);

// Settings → Backups on one install; then a fresh install restores its backup from the set-up
// screen (upload, dry run, passphrase), signs in, and imports another business by upload.
test('back up, export, restore on a fresh install by upload, sign in, import a business by upload', async ({ server, signedIn, browser }) => {
  const { page, client } = signedIn;
  const backups = `${path.resolve(server.dataDir)}-backups`;
  const fresh = await startTestServer({ rendererDir, backgroundLoops: true });
  try {
    const entityName = (await client.get('/api/auth/me')).body.entities[0].name as string;
    await page.goto(`${server.url}/settings/backups`);

    // The passphrase, then Back up now: the backup is listed.
    await page.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await page.getByLabel('Repeat it').fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Set passphrase' }).click();
    await expect(page.getByText('Recovery passphrase saved')).toBeVisible();
    await page.getByRole('button', { name: 'Back up now' }).click();
    const table = page.getByRole('table', { name: 'Backups' });
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.getByText('Verified')).toBeVisible();
    const backupFile = path.join(backups, fs.readdirSync(backups).find((n) => n.endsWith('.bureau-backup'))!);

    // Export this business.
    await page.getByRole('button', { name: `Export ${entityName}` }).click();
    const exportFile = (await page.locator('code[aria-label="Export file"]').textContent())!;
    expect(fs.existsSync(exportFile)).toBe(true);

    // A second business, made after the backup, exported for the import below.
    const second = await client.post('/api/entities', { name: 'Second Shop' });
    expect(second.status).toBe(201);
    const secondExport = await client.post('/api/backups/export', undefined, { headers: { 'x-entity-id': second.body.id } });
    expect(secondExport.status, JSON.stringify(secondExport.body)).toBe(201);

    // The fresh install: set-up screen → Restore from a backup → upload → dry run → passphrase → restore.
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(fresh.url);
    await other.getByRole('link', { name: 'Restore from a backup' }).click();
    await other.locator('[data-restore="file"]').setInputFiles(backupFile);
    const report = other.locator('[data-restore="report"]');
    await expect(report.getByText(entityName)).toBeVisible();
    await expect(report.getByText('Included (the recovery passphrase opens them)')).toBeVisible();
    await screenshot(other, 'backups-restore-dry-run');
    await other.getByLabel('Recovery passphrase').fill(PASSPHRASE);
    await other.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(other.getByRole('heading', { name: 'Backup restored' })).toBeVisible();
    await expect(other.locator('[data-restore="done"]').getByText(/restored/)).toBeVisible();
    await other.getByRole('button', { name: 'Sign in' }).click();

    // Sign in with the restored account.
    await other.getByLabel('E-mail').fill(client.email);
    await other.getByLabel('Password').fill(client.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByText(entityName).first()).toBeVisible();

    // Import a business by upload: the dry run, then the import.
    await other.goto(`${fresh.url}/settings/backups`);
    await other.locator('[data-import="file"]').setInputFiles(secondExport.body.file);
    const dry = other.locator('[data-import="dry-run"]');
    await expect(dry.getByText('Second Shop', { exact: true })).toBeVisible();
    await other.getByLabel('Recovery passphrase of the exporting install').fill(PASSPHRASE);
    await other.getByRole('button', { name: 'Import Second Shop' }).click();
    await expect(other.locator('[data-import="done"]')).toContainText('Imported Second Shop');
    const entities = await other.evaluate(async () => (await (await fetch('/api/entities')).json()) as { name: string }[]);
    expect(entities.map((e) => e.name).sort()).toEqual([entityName, 'Second Shop'].sort());

    // The business the backup already brought: refused, and it says why.
    await other.locator('[data-import="file"]').setInputFiles(exportFile);
    await expect(other.getByText(/already has the business/)).toBeVisible();
    await screenshot(other, 'backups-import-refused');
    await context.close();
  } finally {
    fs.rmSync(backups, { recursive: true, force: true });
    fs.rmSync(`${path.resolve(fresh.dataDir)}-backups`, { recursive: true, force: true });
    await fresh.close();
  }
});
