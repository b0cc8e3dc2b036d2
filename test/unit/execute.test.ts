// The one executor both apps run their endpoints through (desktop route(), hosted endpoint()):
// access first (the app's), then input validated by the spec's zod schemas, then the handler.
import { describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import { execute, type Execution } from '../../server/http/execute.js';
import type { RouteDoc } from '../../server/http/route.js';
import { UnauthorizedError } from '../../server/http/errors.js';

const spec: RouteDoc = {
  method: 'post',
  path: '/x/{id}',
  summary: 'x',
  tags: [],
  params: z.object({ id: z.uuid() }),
  query: z.object({ n: z.coerce.number().int() }),
  body: z.object({ name: z.string() }),
  status: 201,
};
const id = '019abc00-0000-7000-8000-000000000000';
const raw = { params: { id }, query: { n: '3' }, body: { name: 'Ada' } };

function steps<G>(over: Partial<Execution<G>> & Pick<Execution<G>, 'authorize'>): Execution<G> & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    run: (grant, input) => {
      seen.push(`run ${JSON.stringify({ grant, ...input })}`);
      return { ok: true };
    },
    answered: () => false,
    status: () => spec.status ?? 200,
    ...over,
  };
}

describe('execute', () => {
  it('authorizes, validates and runs synchronously when the access check and the handler are synchronous', () => {
    const x = steps({ authorize: () => 'entity-1' });
    const answer = execute(spec, raw, x);
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual({ status: 201, result: { ok: true } });
    expect(x.seen).toEqual([`run ${JSON.stringify({ grant: 'entity-1', params: { id }, query: { n: 3 }, body: { name: 'Ada' } })}`]);
  });

  it('waits for an asynchronous access check (a device token looked up) and an asynchronous handler', async () => {
    const x = steps({ authorize: async () => ({ device: 'd1' }), run: async () => 'done' });
    const answer = execute(spec, raw, x);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual({ status: 201, result: 'done' });
  });

  it('checks access before reading the input: a caller without access learns nothing about the input', async () => {
    const x = steps({ authorize: () => Promise.reject(new UnauthorizedError()) });
    await expect(execute(spec, { ...raw, body: { name: 1 } }, x)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(() => execute(spec, raw, steps({ authorize: () => { throw new UnauthorizedError(); } }))).toThrow(UnauthorizedError);
  });

  it('refuses input that does not match the schemas (a ZodError, which errorResponse maps to 400) without running the handler', () => {
    for (const bad of [{ ...raw, params: { id: 'nope' } }, { ...raw, query: { n: 'x' } }, { ...raw, body: { name: 1 } }, { ...raw, body: undefined }]) {
      const x = steps({ authorize: () => null });
      expect(() => execute(spec, bad, x)).toThrow(ZodError);
      expect(x.seen).toEqual([]);
    }
  });

  it('answers 204 without a body, the handler’s own status when it chose one, and nothing when it wrote the response itself', () => {
    expect(execute({ ...spec, status: undefined }, raw, steps({ authorize: () => null, run: () => undefined }))).toEqual({ status: 204, result: undefined });
    expect(execute(spec, raw, steps({ authorize: () => null, status: () => 200 }))).toEqual({ status: 200, result: { ok: true } });
    expect(execute(spec, raw, steps({ authorize: () => null, answered: () => true }))).toBeNull();
  });
});
