import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { accountsSuite } from './accounts-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

accountsSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_accounts');
});
