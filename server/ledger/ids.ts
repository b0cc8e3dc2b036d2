// Deterministic ids for ledger rows that two devices of one entity could both create: the same
// thing made on two devices must be one row everywhere (UUIDv5 of its natural key), never two
// rows colliding on a unique code or key.
import { v5 as uuidv5 } from 'uuid';

/** Bureau's namespace for name-based ids (a fixed random UUID; changing it would change every id). */
const NAMESPACE = '6f1d2b7e-3c4a-4e8b-9a51-0d7c2e9f4b13';

const idOf = (...parts: string[]) => uuidv5(parts.join('\u0000'), NAMESPACE);

/** An account of an entity's chart, by its code (codes never change and are unique per entity). */
export const accountIdOf = (entityId: string, code: string) => idOf('ledger_account', entityId, code);

/** An event recorded with an idempotency key: a retry on another device names the same event. */
export const eventIdOf = (entityId: string, idempotencyKey: string) => idOf('ledger_event', entityId, idempotencyKey);

/** The posting or the reversal of an event (at most one of each). */
export const entryIdOf = (eventId: string, kind: 'posting' | 'reversal') => idOf('ledger_entry', eventId, kind);

export const lineIdOf = (entryId: string, position: number) => idOf('ledger_line', entryId, String(position));
