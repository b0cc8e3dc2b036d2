import { hostedSuite } from './suite.js';

hostedSuite('PGlite', async () => undefined);
