import { hardeningSuite } from './hardening-suite.js';

hardeningSuite('PGlite', async () => undefined);
