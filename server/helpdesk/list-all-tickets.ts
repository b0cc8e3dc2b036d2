import type { Context } from '../context.js';
import { readInWorker, readPool } from '../db/read-pool.js';
import { JsonText } from '../http/write-json.js';
import type { ListTicketsQuery } from './schemas.js';
import type { Ticket } from './present.js';
import { listTickets, ticketFilter } from './tickets.js';
import { asTickets, listStatement, TICKET_COLUMNS, TICKET_ORDER } from './ticket-sql.js';

/**
 * The spec's unpaged list: every matching ticket, newest first, as the JSON array the contract
 * gives. Read by a worker thread (its own read-only connection) and serialised a chunk at a time,
 * so twenty thousand tickets never hold up the other requests. The text is exactly
 * `JSON.stringify` of the array; `onTotal` gets the number of tickets in it. A business with few
 * tickets is answered directly (the pool's `inlineRows`): finding out is one bounded walk of the list index.
 */
export async function listAllTicketsJson(ctx: Context, entityId: string, q: ListTicketsQuery, onTotal: (total: number) => void): Promise<JsonText<Ticket[]>> {
  const { where, args, shape } = ticketFilter(entityId, q);
  const inlineRows = readPool(ctx)?.inlineRows ?? 0;
  if (shape === '' && inlineRows > 0 && !listStatement(ctx, 'more-than', () => 'select 1 from helpdesk_tickets where entity_id = ? limit 1 offset ?').get(entityId, inlineRows)) {
    const { items, total } = listTickets(ctx, entityId, q);
    onTotal(total);
    return new JsonText<Ticket[]>(JSON.stringify(items));
  }
  const parts: string[] = [];
  let total = 0;
  await readInWorker(ctx, { sql: `select ${TICKET_COLUMNS} from helpdesk_tickets where ${where.join(' and ')} ${TICKET_ORDER}`, params: args }, (rows) => {
    if (rows.length === 0) return;
    total += rows.length;
    // An array's JSON without its brackets: the chunks joined by commas are the whole array's.
    parts.push(JSON.stringify(asTickets(rows)).slice(1, -1));
  });
  onTotal(total);
  return new JsonText<Ticket[]>(`[${parts.join(',')}]`);
}
