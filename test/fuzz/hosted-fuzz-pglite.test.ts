import { hostedFuzz } from './hosted-fuzz.js';

await hostedFuzz('PGlite', 'test/fuzz/hosted-fuzz-pglite.test.ts');
