import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, renderApiTypes } from '../../scripts/api-types.js';

describe('renderer API types', () => {
  it('match the route specs (run `npm run api:types` after changing a route)', async () => {
    const wanted = await renderApiTypes();
    expect(fs.readFileSync(API_TYPES_FILE, 'utf8') === wanted, 'renderer/src/api/schema.gen.ts is out of date: run npm run api:types').toBe(true);
  }, 60_000);
});
