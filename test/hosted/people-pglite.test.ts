import { peopleSuite } from './people-suite.js';

peopleSuite('PGlite', async () => undefined);
