import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../server/http/cursor.js';
import { BadRequestError } from '../../server/http/errors.js';

describe('the list cursor', () => {
  it('round-trips a keyset position', () => {
    const p: [string, string] = ['2026-11-27T02:00:00.000Z', '019abc00-0000-7000-8000-000000000000'];
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
    expect(encodeCursor(p)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('keeps the wire format lists have handed out (base64url JSON [key, id])', () => {
    const before = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'abc'])).toString('base64url');
    expect(decodeCursor(before)).toEqual(['2026-01-01T00:00:00.000Z', 'abc']);
    expect(encodeCursor(['2026-01-01T00:00:00.000Z', 'abc'])).toBe(before);
  });

  it.each(['', 'not a cursor', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["a"]').toString('base64url'), Buffer.from('["a",1]').toString('base64url'), Buffer.from('["a","b","c"]').toString('base64url')])(
    'refuses %j with a 400',
    (bad) => {
      expect(() => decodeCursor(bad)).toThrow(BadRequestError);
      expect(() => decodeCursor(bad)).toThrow('cursor is not valid');
    },
  );
});
