import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('first run: GET /api/auth/setup', () => {
  it('says set-up is needed on a fresh install, without credentials', async () => {
    const res = await server.anon.get('/api/auth/setup');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ setupNeeded: true });
  });

  it('says it is no longer needed once an account exists, and reveals nothing else', async () => {
    const owner = await server.signup();
    const res = await server.anon.get('/api/auth/setup');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ setupNeeded: false });
    // The same answer with a session: it does not depend on who asks.
    expect((await owner.get('/api/auth/setup')).body).toEqual({ setupNeeded: false });
  });

  it('is documented in the OpenAPI document as a public operation with its schema', async () => {
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const op = doc.paths['/api/auth/setup'].get;
    expect(op.security).toEqual([]);
    const schema = op.responses['200'].content['application/json'].schema;
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
    expect(resolved.properties.setupNeeded.type).toBe('boolean');
    expect(resolved.required).toEqual(['setupNeeded']);
  });
});
