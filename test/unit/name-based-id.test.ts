// The ledger's name-based ids are made with Node's SHA-1 for speed; they must stay exactly the
// UUIDv5 ids the `uuid` package made before (ids already stored and synced depend on it).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { v5 as uuidv5 } from 'uuid';
import { nameBasedId } from '../../server/db/ids.js';

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
