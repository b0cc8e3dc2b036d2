import { accountsSuite } from './accounts-suite.js';

accountsSuite('PGlite', async () => undefined);
