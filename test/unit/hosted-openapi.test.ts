// The hosted OpenAPI document says, for every endpoint, who may call it and every way it can fail:
// generated from the same endpoint specs the app mounts, so it cannot drift from them.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../server/context.js';
import type { HostedContext } from '../../server/hosted/context.js';
import { DEFAULT_LIMITS } from '../../server/hosted/limits.js';
import { hostedOpenApi } from '../../server/hosted/openapi.js';
import { hostedEndpoints } from '../../server/hosted/routes.js';

type Operation = { security: Record<string, string[]>[]; description?: string; responses: Record<string, { content?: Record<string, unknown> }>; requestBody?: unknown };

describe('hosted OpenAPI document', () => {
  const endpoints = hostedEndpoints({ clock: systemClock } as HostedContext, DEFAULT_LIMITS);
  const doc = hostedOpenApi(endpoints, 'test') as unknown as { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { scheme?: string }> } };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

  it('documents every mounted endpoint once, as OpenAPI 3.1 with the device-token scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(ops.map((o) => o.key).sort()).toEqual(endpoints.map((e) => `${e.spec.method.toUpperCase()} ${e.spec.path}`).sort());
    expect(doc.components.securitySchemes.deviceToken.scheme).toBe('bearer');
    for (const p of ['/sync/v1/push', '/sync/v1/pull', '/sync/v1/link', '/api/sign/{token}', '/api/relay/transfer']) expect(Object.keys(doc.paths)).toContain(p);
  });

  it('device endpoints take the device token and document 401 and 403; public ones need nothing', () => {
    for (const { key, op } of ops) {
      if (key.includes('/sync/v1/') && !/link|join|info|openapi/.test(key)) {
        expect(op.security, key).toEqual([{ deviceToken: [] }]);
        expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['401', '403']));
        expect(op.description, key).toMatch(/Device roles: /);
      } else expect(op.security, key).toEqual([]);
    }
  });

  it('documents rate limits with 429 and Retry-After, inputs with 400 and bodies with 413, each with the {error} schema', () => {
    for (const { key, op } of ops) {
      const limited = /Rate limit: \d+ per/.test(op.description ?? '');
      if (limited) expect(op.responses['429'], key).toBeDefined();
      if (op.requestBody) expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['400', '413']));
      for (const [status, r] of Object.entries(op.responses)) if (Number(status) >= 400) expect(r.content?.['application/json'], `${key} ${status}`).toEqual({ schema: { $ref: '#/components/schemas/Error' } });
    }
    const push = doc.paths['/sync/v1/push'].post;
    expect(push.description).toMatch(/Rate limit: 1200 per minute per device/);
    expect(Object.keys(push.responses).sort()).toEqual(['200', '400', '401', '403', '409', '413', '426', '429']);
    expect(doc.paths['/sync/v1/link'].post.description).toMatch(/Rate limit: 120 per 15 minutes per client IP/);
    // Link and join may answer 202 "confirm your address" besides 201: both documented with their schemas.
    for (const p of ['/sync/v1/link', '/sync/v1/join']) {
      expect(Object.keys(doc.paths[p].post.responses), p).toEqual(expect.arrayContaining(['201', '202']));
      expect(JSON.stringify(doc.paths[p].post.responses['202']), p).toContain('confirmation');
    }
  });
});
