import { ticketNumbersSuite } from './ticket-numbers-suite.js';

ticketNumbersSuite('PGlite', async () => undefined);
