import { afterAll } from 'vitest';
import { startPostgres } from '../helpers/postgres.js';
import { hostedFuzz } from './hosted-fuzz.js';

const pg = await startPostgres();
afterAll(() => pg.stop());
await hostedFuzz('PostgreSQL', 'test/fuzz/hosted-fuzz-postgres.test.ts', await pg.createDatabase('hosted_fuzz'));
