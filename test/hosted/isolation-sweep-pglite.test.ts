import { hostedIsolationSweep } from './isolation-sweep.js';

hostedIsolationSweep('PGlite', async () => undefined);
