import { afterAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ticketNumbersSuite } from './ticket-numbers-suite.js';

let pg: TestPostgres | undefined;
afterAll(() => pg?.stop());

ticketNumbersSuite('PostgreSQL', async () => {
  pg = await startPostgres();
  return pg.createDatabase('ticket_numbers');
});
