import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hostedBlobSuite } from './blob-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hostedBlobSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_blobs');
});
