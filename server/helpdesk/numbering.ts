// Ticket numbers: one series per business (`ACME-1042`). An entity that is not linked counts on
// this install. A linked one gets its number from the hosted instance when the ticket's insert
// reaches it (server/hosted/ticket-numbers.ts); until then the ticket carries a provisional number
// made of the prefix and this install's tag (`ACME-H06D5-3`), which can never be a final one.
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/tx.js';
import { entityNameOf } from '../auth/index.js';
import { entityLinks } from '../kernel/entity-links.js';
import { helpdeskNode, helpdeskSettings, helpdeskTicketCounters, helpdeskTickets } from './tables.js';
import { derivePrefix } from './ticket-prefix.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const FIRST_SEQUENCE = 1001;
/** The counter row of an unlinked entity's own series (install tags are 5 characters, never this). */
const LOCAL_SERIES = '';

/** This installation's random node tag (5 Crockford base32 characters), created once. */
function nodeTag(tx: Tx): string {
  const row = tx.select().from(helpdeskNode).where(eq(helpdeskNode.id, 1)).get();
  if (row) return row.tag;
  const bytes = crypto.randomBytes(5);
  const tag = [...bytes].map((b) => CROCKFORD[b % 32]).join('');
  tx.insert(helpdeskNode).values({ id: 1, tag }).onConflictDoNothing().run();
  return tx.select().from(helpdeskNode).where(eq(helpdeskNode.id, 1)).get()!.tag;
}

/** The prefix an owner chose, else the one derived from the entity's name. */
export function ticketPrefixOf(tx: Queryable, entityId: string): { prefix: string; chosen: boolean } {
  const chosen = tx.select({ prefix: helpdeskSettings.ticketPrefix }).from(helpdeskSettings).where(eq(helpdeskSettings.entityId, entityId)).get()?.prefix;
  if (chosen) return { prefix: chosen, chosen: true };
  return { prefix: derivePrefix(entityNameOf(tx, entityId)), chosen: false };
}

function nextSeq(tx: Tx, entityId: string, node: string, first: number): number {
  return tx
    .insert(helpdeskTicketCounters)
    .values({ entityId, node, lastSeq: first })
    .onConflictDoUpdate({ target: [helpdeskTicketCounters.entityId, helpdeskTicketCounters.node], set: { lastSeq: sql`${helpdeskTicketCounters.lastSeq} + 1` } })
    .returning({ lastSeq: helpdeskTicketCounters.lastSeq })
    .get().lastSeq;
}

const taken = (tx: Tx, entityId: string, number: string) =>
  tx.select({ id: helpdeskTickets.id }).from(helpdeskTickets).where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.ticketNumber, number))).get() !== undefined;

/**
 * Mints the next ticket number of an entity on this installation; call inside the create
 * transaction. `provisional` is the number again when the hosted instance will replace it.
 */
export function nextTicketNumber(tx: Tx, entityId: string): { ticketNumber: string; provisionalNumber: string | null } {
  const { prefix } = ticketPrefixOf(tx, entityId);
  const linked = entityLinks().linkOf(tx, entityId) !== null;
  const node = linked ? nodeTag(tx) : LOCAL_SERIES;
  // A number already used (a prefix changed back, a series from before) is skipped, never reused.
  for (;;) {
    const seq = nextSeq(tx, entityId, node, linked ? 1 : FIRST_SEQUENCE);
    const number = linked ? `${prefix}-${node}-${seq}` : `${prefix}-${seq}`;
    if (!taken(tx, entityId, number)) return { ticketNumber: number, provisionalNumber: linked ? number : null };
  }
}
