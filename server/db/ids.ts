// Name-based ids (UUIDv5 of a natural key) for rows that two devices of one entity could both
// create: the same thing made on two devices must be one row everywhere, never two rows
// colliding on a unique key.
import { parse, v5 as uuidv5 } from 'uuid';

/** Bureau's namespace for name-based ids (a fixed random UUID; changing it would change every id). */
const NAMESPACE = '6f1d2b7e-3c4a-4e8b-9a51-0d7c2e9f4b13';
/** Parsed once: uuid parses a string namespace again on every call (ids are made per journal line). */
const NAMESPACE_BYTES = parse(NAMESPACE);

export const nameBasedId = (...parts: string[]) => uuidv5(parts.join('\u0000'), NAMESPACE_BYTES);
