import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hardeningSuite } from './hardening-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hardeningSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_hardening');
});
