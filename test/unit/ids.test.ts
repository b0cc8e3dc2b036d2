// Ids made for speed must stay what the `uuid` package makes: the ledger's name-based ids exactly
// (ids already stored and synced depend on them), time-ordered ids in the same layout and order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { v5 as uuidv5 } from 'uuid';
import { createTimeOrderedIds, nameBasedId } from '../../server/db/ids.js';

const NAMESPACE = '6f1d2b7e-3c4a-4e8b-9a51-0d7c2e9f4b13';

describe('nameBasedId', () => {
  it('is uuid v5 of the parts joined by NUL in Bureau’s namespace', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 4 }), (parts) => {
        expect(nameBasedId(...parts)).toBe(uuidv5(parts.join('\u0000'), NAMESPACE));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the ids of existing rows', () => {
    // Fixed values, as stored by earlier versions: an account of the default chart and a line.
    expect(nameBasedId('ledger_account', 'e1', '1100')).toBe('d084a57f-b670-5be1-86a4-df2d76064d6a');
    expect(nameBasedId('ledger_line', 'x', '0')).toBe('3df90d0c-e882-5538-a921-64eb09ebae69');
  });
});

describe('createTimeOrderedIds', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('makes UUIDv7s that sort in the order they were made, many per millisecond', () => {
    const next = createTimeOrderedIds();
    const ids = Array.from({ length: 20_000 }, next); // more than the pool's 256, in a few ms
    for (const id of ids) expect(id).toMatch(V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps increasing when the clock stands still or goes back', () => {
    const times = [1_000, 1_000, 999, 500, 1_000, 1_001, 1_001];
    let i = 0;
    const next = createTimeOrderedIds(() => times[Math.min(i++, times.length - 1)]);
    const ids = times.map(() => next());
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0].slice(0, 13)).toBe('00000000-03e8'); // 1,000 ms in the first 48 bits
  });
});
