import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open.js';
import { helpdeskNode, helpdeskTicketCounters } from './tables.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const FIRST_SEQUENCE = 1001;

/** This installation's random node tag (5 Crockford base32 characters), created once. */
function nodeTag(tx: Db): string {
  const row = tx.select().from(helpdeskNode).where(eq(helpdeskNode.id, 1)).get();
  if (row) return row.tag;
  const bytes = crypto.randomBytes(5);
  const tag = [...bytes].map((b) => CROCKFORD[b % 32]).join('');
  tx.insert(helpdeskNode).values({ id: 1, tag }).onConflictDoNothing().run();
  return tx.select().from(helpdeskNode).where(eq(helpdeskNode.id, 1)).get()!.tag;
}

/** Mints the next ticket number of an entity on this installation; call inside the create transaction. */
export function nextTicketNumber(tx: Db, entityId: string): string {
  const node = nodeTag(tx);
  const row = tx
    .insert(helpdeskTicketCounters)
    .values({ entityId, node, lastSeq: FIRST_SEQUENCE })
    .onConflictDoUpdate({ target: [helpdeskTicketCounters.entityId, helpdeskTicketCounters.node], set: { lastSeq: sql`${helpdeskTicketCounters.lastSeq} + 1` } })
    .returning({ lastSeq: helpdeskTicketCounters.lastSeq })
    .get();
  return `${node}-${row.lastSeq}`;
}
