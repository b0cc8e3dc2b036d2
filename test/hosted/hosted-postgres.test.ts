import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hostedSuite } from './suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hostedSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_suite');
});
