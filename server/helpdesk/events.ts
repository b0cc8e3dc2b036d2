import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';
import { messageSchema, ticketSchema, ticketStatusSchema } from './schemas.js';

/** Who did it: a member, an API key (an integration) or a customer without an account. */
const actor = z.strictObject({ type: z.enum(['user', 'api_key', 'anonymous']), id: z.string().nullable(), name: z.string() }).meta({ id: 'EventActor' });
const assignee = z.uuid().nullable();
/** The message as recorded: without its delivery state, e-mail and attachments (those come later). */
const message = messageSchema.pick({ id: true, ticketId: true, authorType: true, authorId: true, authorName: true, body: true, isInternal: true, createdAt: true }).strict().meta({ id: 'EventTicketMessage' });

/** The helpdesk's events: each carries the ticket as the API shows it. */
export const helpdeskEvents = defineEvents({
  'ticket.created': { description: 'A helpdesk ticket was created. data: { ticket, actor }', data: z.strictObject({ ticket: ticketSchema, actor }) },
  'ticket.updated': { description: 'Ticket fields changed. data: { ticket, changes: string[], actor }', data: z.strictObject({ ticket: ticketSchema, changes: z.array(z.string()).meta({ description: 'The fields that changed' }), actor }) },
  'ticket.status_changed': { description: 'A ticket moved to another status. data: { ticket, from, to, actor }', data: z.strictObject({ ticket: ticketSchema, from: ticketStatusSchema, to: ticketStatusSchema, actor }) },
  'ticket.assigned': { description: 'A ticket was assigned or unassigned. data: { ticket, from, to, actor }', data: z.strictObject({ ticket: ticketSchema, from: assignee, to: assignee, actor }) },
  'ticket.message.created': { description: 'A reply, internal note or customer message was added. data: { ticket, message, actor }', data: z.strictObject({ ticket: ticketSchema, message, actor }) },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof helpdeskEvents> {}
}
