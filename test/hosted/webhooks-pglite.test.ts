import { hostedWebhooksSuite } from './webhooks-suite.js';

hostedWebhooksSuite('PGlite', async () => undefined);
