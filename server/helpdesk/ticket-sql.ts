// The ticket list's SQL pieces, shared by the paged list (tickets.ts), the unpaged one read by the
// worker (list-all-tickets.ts) and the subject search (subject-search.ts).
import type { Statement } from 'better-sqlite3';
import type { Context } from '../context.js';
import { decodeCursor } from '../http/cursor.js';
import type { Ticket } from './present.js';

/** The API's ticket columns (all but search_text), aliased to the API's field names. */
export const TICKET_COLUMNS = [
  'id',
  'entity_id as entityId',
  'ticket_number as ticketNumber',
  '(provisional_number is not null and provisional_number = ticket_number) as numberProvisional',
  'subject',
  'description',
  'status',
  'priority',
  'channel',
  'contact_email as contactEmail',
  'contact_name as contactName',
  'category_id as categoryId',
  'created_by as createdBy',
  'assigned_to as assignedTo',
  'created_at as createdAt',
  'updated_at as updatedAt',
  'first_response_at as firstResponseAt',
  'resolved_at as resolvedAt',
  'closed_at as closedAt',
].join(', ');

/** SQLite answers the provisional flag as 0 or 1. */
export const asTickets = (rows: unknown[]) => (rows as (Omit<Ticket, 'numberProvisional'> & { numberProvisional: number })[]).map((r) => ({ ...r, numberProvisional: r.numberProvisional === 1 })) as Ticket[];

/** The list's statements, prepared once per database and filter shape (the list is a hot path). */
const listStatements = new WeakMap<Context['sqlite'], Map<string, Statement>>();

export function listStatement(ctx: Context, shape: string, build: () => string): Statement {
  let byShape = listStatements.get(ctx.sqlite);
  if (!byShape) listStatements.set(ctx.sqlite, (byShape = new Map()));
  let stmt = byShape.get(shape);
  if (!stmt) byShape.set(shape, (stmt = ctx.sqlite.prepare(build())));
  return stmt;
}

/** Newest first; ties by id. */
export const TICKET_ORDER = 'order by created_at desc, id desc';

/** The tickets after `cursor` in TICKET_ORDER, as a condition to append (empty without a cursor), its arguments and the cursor's time. */
export function afterCursor(cursor: string | undefined): { sql: string; args: unknown[]; createdAt?: string } {
  if (!cursor) return { sql: '', args: [] };
  const [createdAt, id] = decodeCursor(cursor);
  return { sql: ' and (created_at < ? or (created_at = ? and id < ?))', args: [createdAt, createdAt, id], createdAt };
}
