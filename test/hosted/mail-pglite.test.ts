import { hostedMailSuite } from './mail-suite.js';

hostedMailSuite('PGlite', async () => undefined);
