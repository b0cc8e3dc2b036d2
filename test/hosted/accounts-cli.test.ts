// `npm run hosted -- --signups …`: a value it does not know stops the start; open sign-ups with no
// mail server (so no address can be confirmed) start with a warning that says what to set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { killHostedProcess, startHostedProcess, type HostedProcess } from '../helpers/hosted-process.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-hosted-cli-'));
let hosted: HostedProcess | undefined;
afterAll(async () => {
  if (hosted) await killHostedProcess(hosted.child);
  fs.rmSync(root, { recursive: true, force: true });
});

it('refuses an unknown --signups value', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/hosted/cli.ts', '--port', '0', '--data-dir', path.join(root, 'never'), '--signups', 'everyone'], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('--signups must be one of open, invite, closed');
});

it('warns at start that open sign-ups without SMTP are unconfirmed', async () => {
  hosted = await startHostedProcess({ dataDir: path.join(root, 'data') });
  await expect.poll(() => fs.readFileSync(hosted!.logFile, 'utf8'), { timeout: 10_000 }).toContain('Warning: sign-ups are unconfirmed (no --smtp-url); a public instance must set --smtp-url or --signups invite|closed');
});
