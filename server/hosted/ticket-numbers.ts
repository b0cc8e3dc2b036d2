// One ticket-number series per business: a linked device gives a new ticket a provisional number
// (server/helpdesk/numbering.ts); when its insert reaches the hosted instance, the hosted instance
// writes the final one (`ACME-1042`) as its own change, in the push's transaction, from the
// entity's counter — under the entity's lock, so two devices' tickets never get the same number.
import { eq, sql } from 'drizzle-orm';
import type { Change } from '../sync/protocol.js';
import { derivePrefix, sequenceOf, TICKET_PREFIX } from '../helpdesk/index.js';
import type { HostedContext } from './context.js';
import { appendHostedChanges, mirroredRow, type HostedChange } from './mirror.js';
import { entities, ticketCounters } from './schema.js';
import type { HostedTx } from './store.js';

const FIRST_NUMBER = 1001;

/** The prefix an owner chose (a synced helpdesk setting), else the one derived from the entity's name. */
async function prefixOf(tx: HostedTx, entityId: string): Promise<string> {
  const chosen = (await mirroredRow(tx, entityId, 'helpdesk_settings', entityId))?.ticket_prefix;
  if (typeof chosen === 'string' && TICKET_PREFIX.test(chosen)) return chosen;
  const [entity] = await tx.select({ name: entities.name }).from(entities).where(eq(entities.id, entityId));
  return derivePrefix(entity?.name ?? '');
}

/** A final number that arrived from a device (an unlinked series pushed at link time): the counter goes past it. */
async function passNumber(tx: HostedTx, entityId: string, seq: number): Promise<void> {
  await tx
    .insert(ticketCounters)
    .values({ entityId, lastNumber: seq })
    .onConflictDoUpdate({ target: ticketCounters.entityId, set: { lastNumber: sql`greatest(${ticketCounters.lastNumber}, excluded.last_number)` } });
}

async function nextNumber(tx: HostedTx, entityId: string): Promise<number> {
  const [row] = await tx
    .insert(ticketCounters)
    .values({ entityId, lastNumber: FIRST_NUMBER })
    .onConflictDoUpdate({ target: ticketCounters.entityId, set: { lastNumber: sql`${ticketCounters.lastNumber} + 1` } })
    .returning({ lastNumber: ticketCounters.lastNumber });
  return row.lastNumber;
}

/**
 * Called inside every device push with the changes just accepted: each ticket whose number is
 * still provisional (`ticket_number` = `provisional_number`) gets the next final number. Read from
 * the changes themselves, so a large import costs one counter update, not a row read per ticket.
 */
export async function numberTickets(h: HostedContext, tx: HostedTx, entityId: string, accepted: Change[]): Promise<void> {
  const provisional = new Set<string>();
  let highest: number | null = null;
  for (const c of accepted) {
    const number = c.table === 'helpdesk_tickets' ? c.columns.ticket_number : undefined;
    if (typeof number !== 'string') continue;
    if (c.columns.provisional_number === number) provisional.add(c.rowId);
    else {
      provisional.delete(c.rowId);
      const seq = sequenceOf(number);
      if (seq !== null) highest = Math.max(highest ?? seq, seq);
    }
  }
  if (highest !== null) await passNumber(tx, entityId, highest);
  // Still provisional in the mirror: a later write of the number (a final one) may have won.
  const due: string[] = [];
  for (const id of provisional) {
    const row = await mirroredRow(tx, entityId, 'helpdesk_tickets', id);
    if (row && typeof row.ticket_number === 'string' && row.provisional_number === row.ticket_number) due.push(id);
  }
  if (due.length === 0) return;
  const prefix = await prefixOf(tx, entityId);
  const changes: HostedChange[] = [];
  for (const id of due) changes.push({ table: 'helpdesk_tickets', rowId: id, op: 'upsert', columns: { ticket_number: `${prefix}-${await nextNumber(tx, entityId)}` } });
  await appendHostedChanges(h, tx, entityId, changes);
}
