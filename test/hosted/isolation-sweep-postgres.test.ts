import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hostedIsolationSweep } from './isolation-sweep.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hostedIsolationSweep('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_sweep');
});
