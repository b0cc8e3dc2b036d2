import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { peopleSuite } from './people-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

peopleSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_people');
});
