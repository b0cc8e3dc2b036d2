import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hostedWebhooksSuite } from './webhooks-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

hostedWebhooksSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('hosted_webhooks');
});
