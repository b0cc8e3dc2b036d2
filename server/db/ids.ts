// Name-based ids (UUIDv5 of a natural key) for rows that two devices of one entity could both
// create: the same thing made on two devices must be one row everywhere, never two rows
// colliding on a unique key.
import { createHash } from 'node:crypto';
import { parse } from 'uuid';

/** Bureau's namespace for name-based ids (a fixed random UUID; changing it would change every id). */
const NAMESPACE = '6f1d2b7e-3c4a-4e8b-9a51-0d7c2e9f4b13';
const NAMESPACE_BYTES = Buffer.from(parse(NAMESPACE));

/**
 * UUIDv5 (RFC 9562 §5.5) with Node's native SHA-1: the `uuid` package hashes in JavaScript, a
 * tenth of posting a ledger event (an id per entry and per line; profiled). Same ids as
 * `uuid.v5(name, NAMESPACE)` (test/unit/name-based-id.test.ts).
 */
export function nameBasedId(...parts: string[]): string {
  const h = createHash('sha1').update(NAMESPACE_BYTES).update(parts.join('\u0000'), 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
