// Our ETag function must give exactly the tags Express's default (weak) generator gives: clients
// hold those tags and send them back in If-None-Match.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import express from 'express';
import { weakEtag } from '../../server/http/write-json.js';

const expressEtag = express().get('etag fn') as (body: string | Buffer, encoding?: BufferEncoding) => string;

describe('weakEtag', () => {
  it('is Express’s default weak ETag for any string or buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(weakEtag(s, 'utf8')).toBe(expressEtag(s, 'utf8'));
        expect(weakEtag(Buffer.from(s))).toBe(expressEtag(Buffer.from(s)));
      }),
      { numRuns: 1000 },
    );
    expect(weakEtag('')).toBe(expressEtag('', 'utf8'));
    expect(weakEtag('é', 'latin1')).toBe(expressEtag('é', 'latin1'));
    expect(weakEtag(JSON.stringify({ status: 'ok', version: '0.1.0' }), 'utf8')).toBe(expressEtag(JSON.stringify({ status: 'ok', version: '0.1.0' }), 'utf8'));
  });
});
