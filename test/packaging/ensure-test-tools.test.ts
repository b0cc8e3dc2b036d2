// `npm test` starts by making sure the programs its suites drive exist (Chromium, Dovecot,
// PostgreSQL): installed when it can be (root with apt-get), otherwise an immediate stop that
// names the exact command — never a run that skips a suite.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { chromiumPlan, DEFAULT_CHROMIUM, INSTALL_COMMAND, systemToolsPlan } from '../../scripts/ensure-test-tools.mjs';

const facts = (over: Record<string, unknown>) => ({ env: {}, exists: () => false, isRoot: false, hasApt: true, platform: 'linux', ...over });

describe('Chromium for the UI tests', () => {
  it('goes ahead when the browser is there', () => {
    expect(chromiumPlan(facts({ exists: (f: string) => f === DEFAULT_CHROMIUM }))).toEqual({ action: 'ok', file: DEFAULT_CHROMIUM });
    expect(chromiumPlan(facts({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: (f: string) => f === '/opt/chrome' })).action).toBe('ok');
  });

  it('installs it with apt-get when running as root', () => {
    expect(chromiumPlan(facts({ isRoot: true }))).toEqual({ action: 'install', file: DEFAULT_CHROMIUM });
  });

  it('otherwise stops with the exact command to run', () => {
    const plan = chromiumPlan(facts({ isRoot: false }));
    expect(plan.action).toBe('fail');
    expect(plan.message).toContain(INSTALL_COMMAND);
    expect(chromiumPlan(facts({ platform: 'darwin', hasApt: false })).message).toMatch(/CHROMIUM_PATH=/);
    // An explicit CHROMIUM_PATH that is wrong is never "fixed" by installing something else.
    expect(chromiumPlan(facts({ isRoot: true, env: { CHROMIUM_PATH: '/nope/chrome' } })).message).toMatch(/CHROMIUM_PATH is \/nope\/chrome/);
  });

  it('the script stops at once, with status 1, on a missing browser', () => {
    const missing = spawnSync(process.execPath, ['scripts/ensure-test-tools.mjs'], { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: '/nope/chrome' } });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('CHROMIUM_PATH is /nope/chrome');
    const present = spawnSync(process.execPath, ['scripts/ensure-test-tools.mjs'], { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: process.execPath } });
    expect(present.status).toBe(0);
  });
});

describe('Dovecot and PostgreSQL for the mail and hosted suites', () => {
  const all = ['/usr/sbin/dovecot', '/usr/lib/postgresql/*/bin/postgres'];
  it('goes ahead when both are there', () => {
    expect(systemToolsPlan(facts({ exists: (f: string) => all.includes(f) }))).toEqual({ action: 'ok', packages: [] });
  });

  it('installs what is missing with apt-get when running as root', () => {
    expect(systemToolsPlan(facts({ isRoot: true, exists: (f: string) => f === all[1] }))).toEqual({ action: 'install', packages: ['dovecot-imapd'] });
    expect(systemToolsPlan(facts({ isRoot: true }))).toEqual({ action: 'install', packages: ['dovecot-imapd', 'postgresql'] });
  });

  it('otherwise stops, naming what each is for and the exact command', () => {
    const plan = systemToolsPlan(facts({ exists: (f: string) => f === all[0] }));
    expect(plan.action).toBe('fail');
    expect(plan.message).toContain("PostgreSQL (the hosted instance's PostgreSQL tests)");
    expect(plan.message).toContain('sudo apt-get update && sudo apt-get install -y postgresql');
  });
});
