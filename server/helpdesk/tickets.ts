import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { countMatches, entityMatch, ftsQueryOf, newestMatches } from '../db/fts.js';
import { write } from '../db/write.js';
import type { Queryable } from '../db/tx.js';
import { BadRequestError, NotFoundError } from '../http/errors.js';
import { helpdeskCategories, helpdeskMessages, helpdeskTickets } from './tables.js';
import { nextTicketNumber } from './numbering.js';
import { moveTicketStatus } from './status.js';
import { assertAssignable, memberName } from './members.js';
import { writeSystemMessage } from './timeline.js';
import { presentMessage, presentTicket, type Actor, type Ticket, type TicketRow } from './present.js';
import { withMailDetails } from './message-mail.js';
import type { CreateTicketInput, ListTicketsQuery, UpdateTicketInput } from './schemas.js';
import { encodeCursor } from '../http/cursor.js';
import { afterCursor, asTickets, listStatement, TICKET_COLUMNS, TICKET_ORDER } from './ticket-sql.js';
import { searchSubjectsPage } from './subject-search.js';

/** `search` matches the subject (the contract); same folding as the `unicode_lower` SQL function. */
const searchTextOf = (subject: string) => subject.toLowerCase();

export function findTicket(db: Queryable, entityId: string, ticketId: string): TicketRow {
  const row = db.select().from(helpdeskTickets).where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.id, ticketId))).get();
  if (!row) throw new NotFoundError('Ticket not found');
  return row;
}

function assertCategory(db: Queryable, entityId: string, categoryId: string) {
  const row = db.select({ id: helpdeskCategories.id }).from(helpdeskCategories).where(and(eq(helpdeskCategories.entityId, entityId), eq(helpdeskCategories.id, categoryId))).get();
  if (!row) throw new BadRequestError('categoryId: must be a category of this entity');
}

export function createTicket(ctx: Context, entityId: string, actor: Actor, input: CreateTicketInput) {
  if (input.categoryId) assertCategory(ctx.db, entityId, input.categoryId);
  const assigneeName = input.assignedTo ? assertAssignable(ctx, entityId, input.assignedTo) : null;
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const { ticketNumber, provisionalNumber } = nextTicketNumber(tx, entityId);
    const row: TicketRow = {
      id: ctx.ids.next(),
      entityId,
      ticketNumber,
      provisionalNumber,
      subject: input.subject,
      description: input.description ?? null,
      status: 'new',
      priority: input.priority,
      channel: input.channel,
      contactEmail: input.contactEmail ?? null,
      contactName: input.contactName ?? null,
      categoryId: input.categoryId ?? null,
      createdBy: actor.type === 'user' ? actor.id : null,
      assignedTo: input.assignedTo ?? null,
      searchText: searchTextOf(input.subject),
      createdAt: now,
      updatedAt: now,
      firstResponseAt: null,
      resolvedAt: null,
      closedAt: null,
    };
    tx.insert(helpdeskTickets).values(row).run();
    writeSystemMessage(ctx, tx, entityId, row.id, `Ticket ${ticketNumber} created by ${actor.name}`, now);
    const ticket = presentTicket(row);
    ctx.events.record(tx, { entityId, type: 'ticket.created', data: { ticket, actor } });
    if (row.assignedTo) {
      writeSystemMessage(ctx, tx, entityId, row.id, `Assigned to ${assigneeName} by ${actor.name}`, now);
      ctx.events.record(tx, { entityId, type: 'ticket.assigned', data: { ticket, from: null, to: row.assignedTo, actor } });
    }
    return ticket;
  });
}

export function getTicket(ctx: Context, entityId: string, ticketId: string) {
  const row = findTicket(ctx.db, entityId, ticketId);
  const messages = ctx.db
    .select()
    .from(helpdeskMessages)
    .where(and(eq(helpdeskMessages.entityId, entityId), eq(helpdeskMessages.ticketId, ticketId)))
    .orderBy(asc(helpdeskMessages.createdAt), asc(helpdeskMessages.id))
    .all();
  return { ...presentTicket(row), messages: withMailDetails(ctx, entityId, ticketId, messages.map(presentMessage)) };
}


/** Default page size when a client pages with `cursor` but gives no `limit`. */
const DEFAULT_PAGE = 50;

/**
 * The list's filters as SQL conditions on helpdesk_tickets, their arguments, their shape (which
 * filters are set), and the full-text query of `q` when there is one (scoped to the entity).
 */
export function ticketFilter(entityId: string, q: ListTicketsQuery): { where: string[]; args: unknown[]; shape: string; match: string | null } {
  const where = ['entity_id = ?'];
  const args: unknown[] = [entityId];
  let shape = '';
  const filter = (flag: string, clause: string, value: unknown) => {
    shape += flag;
    where.push(clause);
    args.push(value);
  };
  if (q.status) filter('s', 'status = ?', q.status);
  if (q.priority) filter('p', 'priority = ?', q.priority);
  if (q.assignedTo) filter('a', 'assigned_to = ?', q.assignedTo);
  if (q.categoryId) filter('c', 'category_id = ?', q.categoryId);
  if (q.search) filter('q', 'instr(search_text, ?) > 0', q.search.toLowerCase());
  let match: string | null = null;
  if (q.q) {
    const words = ftsQueryOf(q.q);
    // Nothing to look for (only punctuation): no ticket contains it.
    if (words === null) filter('f0', '0 = ?', 1);
    // Not correlated with the outer row (the entity is in the match): SQLite matches once, not once per ticket.
    else filter('f', 'id in (select d.ticket_id from helpdesk_search s join helpdesk_search_docs d on d.doc = s.rowid where helpdesk_search match ?)', (match = entityMatch(entityId, 'body', words)));
  }
  if (q.ticketNumber) filter('n', 'instr(unicode_lower(ticket_number), ?) > 0', q.ticketNumber.toLowerCase());
  if (q.contact) filter('k', "instr(unicode_lower(coalesce(contact_name, '') || char(10) || coalesce(contact_email, '')), ?) > 0", q.contact.toLowerCase());
  return { where, args, shape, match };
}

/**
 * Every matching ticket, newest first — or, when the client asks for paging (`limit` or
 * `cursor`), one page of them and the cursor of the next.
 */
export function listTickets(ctx: Context, entityId: string, q: ListTicketsQuery) {
  const filter = ticketFilter(entityId, q);
  const { where, args, shape, match } = filter;
  const paged = q.limit !== undefined || q.cursor !== undefined;
  const order = TICKET_ORDER;
  if (!paged) {
    const rows = asTickets(listStatement(ctx, `all:${shape}`, () => `select ${TICKET_COLUMNS} from helpdesk_tickets where ${where.join(' and ')} ${order}`).all(...args));
    // Unpaged, the body is every matching ticket: the count is the body's length.
    return { items: rows, total: rows.length, nextCursor: null };
  }
  const limit = q.limit ?? DEFAULT_PAGE;
  const searched = match === null ? null : newestTicketsPage(ctx, entityId, q, filter, match, limit);
  if (searched) return searched;
  // The spec's subject search alone: counted and found from the trigram index.
  const bySubject = shape === 'q' && q.search ? searchSubjectsPage(ctx, entityId, q.search.toLowerCase(), q.cursor, limit) : null;
  if (bySubject) return { ...pageOf(asTickets(bySubject.rows), limit), total: bySubject.total };
  const total = (listStatement(ctx, `count:${shape}`, () => `select count(*) as n from helpdesk_tickets where ${where.join(' and ')}`).get(...args) as { n: number }).n;
  const after = afterCursor(q.cursor);
  const rows = asTickets(listStatement(ctx, `page:${q.cursor ? 'c' : ''}:${shape}`, () => `select ${TICKET_COLUMNS} from helpdesk_tickets where ${where.join(' and ')}${after.sql} ${order} limit ?`).all(...args, ...after.args, limit + 1));
  return { ...pageOf(rows, limit), total };
}

/** The first `limit` of `limit + 1` rows read, and the next page's cursor when there was one more. */
function pageOf(rows: Ticket[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit ? encodeCursor([last.createdAt, last.id]) : null };
}

const SEARCH_INDEX = { fts: 'helpdesk_search', docs: 'helpdesk_search_docs', idColumn: 'ticket_id' };

/** Index rows a search with other filters walks before asking SQLite the whole question instead. */
const FILTERED_WALK = 2000;

/**
 * A page of a full-text search read walking the index newest first (its keys are creation times:
 * migration 0030), the other filters and the cursor applied to each step's tickets. With `q`
 * alone FTS5 counts the matches (the entity is in the match: one index row per ticket, 0028);
 * with other filters SQLite counts, and a walk that finds too few (filters that reject most
 * matches) gives way: null.
 */
function newestTicketsPage(ctx: Context, entityId: string, q: ListTicketsQuery, filter: ReturnType<typeof ticketFilter>, match: string, limit: number) {
  const rest = ticketFilter(entityId, { ...q, q: undefined });
  const after = afterCursor(q.cursor);
  const read = listStatement(
    ctx,
    `fts-page:${q.cursor ? 'c' : ''}:${rest.shape}`,
    // `+entity_id` (the first condition): the ids are looked up by key, not found by walking an index of the entity's tickets.
    () => `select ${TICKET_COLUMNS} from helpdesk_tickets where +${rest.where.join(' and ')} and id in (select value from json_each(?))${after.sql}`,
  );
  const walked = newestMatches(ctx.sqlite, SEARCH_INDEX, match, { want: limit + 1, before: after.createdAt, maxWalk: rest.shape === '' ? Infinity : FILTERED_WALK }, (ids) =>
    asTickets(read.all(...rest.args, JSON.stringify(ids), ...after.args)),
  );
  if (!walked) return null;
  const { where, args, shape } = filter;
  const total =
    rest.shape === ''
      ? (walked.everyMatch ?? countMatches(ctx.sqlite, SEARCH_INDEX, match))
      : (listStatement(ctx, `count:${shape}`, () => `select count(*) as n from helpdesk_tickets where ${where.join(' and ')}`).get(...args) as { n: number }).n;
  return { ...pageOf(walked.rows, limit), total };
}

const PRIORITY_NAMES = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' } as const;

const EDITABLE = ['subject', 'description', 'priority', 'channel', 'contactEmail', 'contactName', 'categoryId', 'assignedTo', 'status'] as const;

export function updateTicket(ctx: Context, entityId: string, actor: Actor, ticketId: string, input: UpdateTicketInput) {
  if (input.categoryId) assertCategory(ctx.db, entityId, input.categoryId);
  const assigneeName = input.assignedTo ? assertAssignable(ctx, entityId, input.assignedTo) : null;
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const before = findTicket(tx, entityId, ticketId);
    const changes = EDITABLE.filter((k) => input[k] !== undefined && (input[k] ?? null) !== before[k]);
    if (changes.length === 0) return presentTicket(before);
    const after: TicketRow = { ...before, updatedAt: now };
    for (const k of changes) (after as Record<string, unknown>)[k] = input[k] ?? null;
    if (changes.includes('status')) Object.assign(after, moveTicketStatus(before.status, after.status, before, now));
    after.searchText = searchTextOf(after.subject);
    const { id: _id, entityId: _e, ...set } = after;
    tx.update(helpdeskTickets).set(set).where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.id, ticketId))).run();
    const ticket = presentTicket(after);
    if (changes.includes('status')) {
      writeSystemMessage(ctx, tx, entityId, ticketId, `Status changed from ${before.status} to ${after.status} by ${actor.name}`, now);
      ctx.events.record(tx, { entityId, type: 'ticket.status_changed', data: { ticket, from: before.status, to: after.status, actor } });
    }
    if (changes.includes('priority')) {
      writeSystemMessage(ctx, tx, entityId, ticketId, `Priority changed from ${PRIORITY_NAMES[before.priority]} to ${PRIORITY_NAMES[after.priority]} by ${actor.name}`, now);
    }
    if (changes.includes('assignedTo')) {
      const text = after.assignedTo ? `Assigned to ${assigneeName} by ${actor.name}` : `Unassigned${before.assignedTo ? ` from ${memberName(ctx, entityId, before.assignedTo) ?? 'a former member'}` : ''} by ${actor.name}`;
      writeSystemMessage(ctx, tx, entityId, ticketId, text, now);
      ctx.events.record(tx, { entityId, type: 'ticket.assigned', data: { ticket, from: before.assignedTo, to: after.assignedTo, actor } });
    }
    ctx.events.record(tx, { entityId, type: 'ticket.updated', data: { ticket, changes, actor } });
    return ticket;
  });
}
