import { defineConfig } from '@playwright/test';

/**
 * Tests of the packaged desktop app (a `BUREAU_BUILD=test` electron-builder build, which keeps
 * Node's inspector flags that Playwright's `_electron` needs). They run where an Electron binary
 * exists — the release workflow, under xvfb-run on Linux — with BUREAU_APP_EXECUTABLE set to the
 * packaged executable. Not part of `npm test` (no Electron binary can be downloaded here).
 */
export default defineConfig({
  testDir: 'test/packaged',
  testMatch: '**/*.spec.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? 'line' : 'list',
});
