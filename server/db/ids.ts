// Name-based ids (UUIDv5 of a natural key) for rows that two devices of one entity could both
// create: the same thing made on two devices must be one row everywhere, never two rows
// colliding on a unique key.
import { hash, randomFillSync } from 'node:crypto';
import { parse, v7 as uuidv7 } from 'uuid';

/** Bureau's namespace for name-based ids (a fixed random UUID; changing it would change every id). */
const NAMESPACE = '6f1d2b7e-3c4a-4e8b-9a51-0d7c2e9f4b13';
const NAMESPACE_BYTES = Buffer.from(parse(NAMESPACE));

/**
 * UUIDv5 (RFC 9562 §5.5) with Node's native one-shot SHA-1: the `uuid` package hashes in
 * JavaScript, a tenth of posting a ledger event (an id per entry and per line; profiled), and
 * `createHash` objects still cost half of that. Same ids as
 * `uuid.v5(name, NAMESPACE)` (test/unit/ids.test.ts).
 */
export function nameBasedId(...parts: string[]): string {
  const hex = hash('sha1', Buffer.concat([NAMESPACE_BYTES, Buffer.from(parts.join('\u0000'), 'utf8')]), 'hex');
  // Version 5 in the 13th digit, variant 10xx in the 17th.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Time-ordered ids (UUIDv7, RFC 9562 §5.7) as `uuid.v7()` makes them: its layout, and increasing
 * within a millisecond (a 31-bit counter seeded at random each new millisecond, as `uuid` keeps
 * it), so ids sort in the order they were made (the outbox is read in id order). The random
 * bytes come from a pool refilled 256 ids at a time: `uuid` asks webcrypto for 16 bytes per id,
 * a twentieth of posting a ledger event (profiled).
 */
export function createTimeOrderedIds(now: () => number = Date.now): () => string {
  const pool = Buffer.allocUnsafe(16 * 256);
  let at = pool.length;
  let msecs = -Infinity;
  let seq = 0;
  return () => {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const random = pool.subarray(at, (at += 16));
    const t = now();
    if (t > msecs) {
      msecs = t;
      seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
    } else {
      seq = (seq + 1) | 0;
      if (seq === 0) msecs += 1; // the counter wrapped: borrow the next millisecond
    }
    return uuidv7({ msecs, seq, random });
  };
}
