import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { ConflictError } from '../http/errors.js';
import { helpdeskMessages, helpdeskTickets } from './tables.js';
import { findTicket } from './tickets.js';
import { moveTicketStatus } from './status.js';
import { writeSystemMessage } from './timeline.js';
import { queueTicketReply } from './mail-out.js';
import { presentMessage, presentTicket, type Actor, type MessageRow, type TicketRow } from './present.js';
import type { CreateMessageInput, TicketStatus } from './schemas.js';

/** Where a message moves the ticket: a public agent reply opens a new ticket; a customer reply reopens. */
function statusAfterMessage(ticket: TicketRow, input: CreateMessageInput): TicketStatus {
  if (input.authorType === 'agent' && !input.isInternal && ticket.status === 'new') return 'open';
  if (input.authorType === 'customer' && (ticket.status === 'pending' || ticket.status === 'resolved')) return 'open';
  return ticket.status;
}

export function addTicketMessage(ctx: Context, entityId: string, actor: Actor, ticketId: string, input: CreateMessageInput) {
  const now = nowIso(ctx);
  return write(ctx, (tx) => {
    const before = findTicket(tx, entityId, ticketId);
    if (before.status === 'closed') throw new ConflictError('Ticket is closed and takes no more messages; open a new ticket');
    const isAgent = input.authorType === 'agent';
    const message: MessageRow = {
      id: ctx.ids.next(),
      entityId,
      ticketId,
      authorType: input.authorType,
      authorId: isAgent && actor.type === 'user' ? actor.id : null,
      authorName: input.authorName ?? (isAgent ? actor.name : (before.contactName ?? before.contactEmail ?? 'Customer')),
      body: input.body,
      isInternal: input.isInternal,
      createdAt: now,
    };
    tx.insert(helpdeskMessages).values(message).run();
    queueTicketReply(ctx, tx, before, message);

    const after: TicketRow = { ...before, updatedAt: now };
    if (isAgent && !input.isInternal && !before.firstResponseAt) after.firstResponseAt = now;
    const to = statusAfterMessage(before, input);
    if (to !== before.status) Object.assign(after, { status: to }, moveTicketStatus(before.status, to, before, now));
    tx.update(helpdeskTickets)
      .set({ updatedAt: after.updatedAt, firstResponseAt: after.firstResponseAt, status: after.status, resolvedAt: after.resolvedAt, closedAt: after.closedAt })
      .where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.id, ticketId)))
      .run();
    const ticket = presentTicket(after);
    const presented = presentMessage(message);
    ctx.events.record(tx, { entityId, type: 'ticket.message.created', data: { ticket, message: presented, actor } });
    if (to !== before.status) {
      const why = isAgent ? `reply by ${message.authorName}` : `customer reply from ${message.authorName}`;
      writeSystemMessage(ctx, tx, entityId, ticketId, `Status changed from ${before.status} to ${to} (${why})`, now);
      ctx.events.record(tx, { entityId, type: 'ticket.status_changed', data: { ticket, from: before.status, to, actor } });
    }
    return presented;
  });
}
