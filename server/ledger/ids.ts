// Deterministic ids for ledger rows that two devices of one entity could both create (see
// server/db/ids.ts).
import { nameBasedId as idOf } from '../db/ids.js';

/** An account of an entity's chart, by its code (codes never change and are unique per entity). */
export const accountIdOf = (entityId: string, code: string) => idOf('ledger_account', entityId, code);

/** An event recorded with an idempotency key: a retry on another device names the same event. */
export const eventIdOf = (entityId: string, idempotencyKey: string) => idOf('ledger_event', entityId, idempotencyKey);

/** The posting or the reversal of an event (at most one of each). */
export const entryIdOf = (eventId: string, kind: 'posting' | 'reversal') => idOf('ledger_entry', eventId, kind);

export const lineIdOf = (entryId: string, position: number) => idOf('ledger_line', entryId, String(position));
