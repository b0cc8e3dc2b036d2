import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hostedMailSuite } from './mail-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hostedMailSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_mail');
});
