// The hosted instance on PostgreSQL outlives its idle connections breaking (a database restart,
// a failover, an administrator terminating backends): the pool drops them and the next request
// works. Without a pool 'error' listener the broken idle connection ended the process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startHosted, type RunningHosted } from '../../server/hosted/main.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { link } from './client.js';

let pg: TestPostgres | undefined;
let hosted: RunningHosted | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bureau-pg-restart-'));
afterAll(async () => {
  await hosted?.close();
  await pg?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('keeps serving after PostgreSQL terminates its idle connections', async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase('restart_suite');
  hosted = await startHosted({ port: 0, dataDir, databaseUrl: url, logLevel: 'silent' });
  const { device } = await link(hosted.url);
  expect((await device.pull()).status).toBe(200);

  const { default: pgLib } = await import('pg');
  const admin = new pgLib.Client({ connectionString: url });
  await admin.connect();
  const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'`);
  await admin.end();
  expect(killed.rowCount).toBeGreaterThan(0);
  await new Promise((r) => setTimeout(r, 300));

  expect((await device.pull()).status).toBe(200);
  expect((await fetch(`${hosted.url}/api/health`)).status).toBe(200);
}, 60_000);
