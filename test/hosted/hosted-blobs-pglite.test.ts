import { hostedBlobSuite } from './blob-suite.js';

hostedBlobSuite('PGlite', async () => undefined);
