import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('core HTTP', () => {
  it('reports health and version', async () => {
    const res = await server.anon.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await server.anon.get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No route/);
  });

  it('rejects malformed JSON with 400 and oversized bodies with 413', async () => {
    const bad = await server.anon.request('POST', '/api/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Malformed JSON body' });
    const big = await server.anon.request('POST', '/api/auth/login', { raw: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expect(big.body.error).toBeTypeOf('string');
  });

  it('serves an OpenAPI 3.1 document covering the routes', async () => {
    const res = await server.anon.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/api/health'].get).toBeDefined();
    expect(res.body.paths['/api/settings/api-keys'].post).toBeDefined();
  });
});

describe('OpenAPI coverage', () => {
  it('documents every route the server exposes', async () => {
    const { allRoutes } = await import('../../server/app.js');
    const doc = (await server.anon.get('/api/openapi.json')).body;
    const missing = allRoutes()
      .map((r) => `${r.spec.method} ${r.spec.path}`)
      .filter((key) => {
        const [method, p] = key.split(' ');
        return !doc.paths[p]?.[method];
      });
    expect(missing).toEqual([]);
  });
});
