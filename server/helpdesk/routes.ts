import { z } from 'zod';
import { route, type EntityAccess, type RouteDef } from '../http/route.js';
import { actorOf } from '../auth/index.js';
import * as s from './schemas.js';
import { createTicket, getTicket, listTickets, updateTicket } from './tickets.js';
import { addTicketMessage } from './messages.js';
import { listAllTicketsJson } from './list-all-tickets.js';
import { LONG_READ_BUSY_DOC } from '../db/read-pool.js';
import { withMailDetails } from './message-mail.js';
import { getTicketNumbering, setTicketPrefix } from './ticket-numbering.js';
import { createCategory, deleteCategory, listCategories, updateCategory } from './categories.js';

const tags = ['Helpdesk'];
const view: EntityAccess = { entity: 'QBH', permission: 'HELPDESK.VIEW', scope: 'read:helpdesk' };
const edit: EntityAccess = { entity: 'QBH', permission: 'HELPDESK.EDIT', scope: 'write:helpdesk' };

export const helpdeskRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/helpdesk/ticket-numbering', summary: 'The ticket-number prefix and who assigns numbers', tags, access: view, response: s.ticketNumberingSchema },
    ({ ctx, entityId }) => getTicketNumbering(ctx, entityId),
  ),
  route(
    {
      method: 'put',
      path: '/api/helpdesk/ticket-numbering',
      summary: 'Set the ticket-number prefix (owners)',
      description: 'New tickets are numbered with it on every device (the setting syncs); existing tickets keep their numbers and the series goes on counting. 403 for anyone but an owner.',
      tags,
      access: { entity: 'QBH', permission: 'SETTINGS.MANAGE' },
      body: s.setTicketPrefixBody,
      response: s.ticketNumberingSchema,
    },
    ({ ctx, entityId, auth, body }) => setTicketPrefix(ctx, entityId, auth, body.prefix),
  ),
  route(
    {
      method: 'get',
      path: '/api/helpdesk/tickets',
      summary: 'List tickets (newest first)',
      description:
        'Filters: `status`, `priority`, `assignedTo`, `categoryId`, `search` (case-insensitive substring of the subject, as the contract says), `q` (full-text: every word, as a prefix, in the subject, description, contact, number or a message), `ticketNumber` and `contact` (name or e-mail). Ordered by createdAt then id, newest first. Without `limit` and `cursor` the body is every matching ticket. Paging is opt-in: with `limit` (1–200) and/or `cursor` (default page size 50) the body is one page; when more remain the response has `x-next-cursor` (pass it as `cursor`). `x-total-count` is always the number of matching tickets. The body stays a plain array as the contract says.',
      tags,
      access: view,
      query: s.listTicketsQuery,
      response: z.array(s.ticketSchema),
      errors: { 503: `Unpaged: ${LONG_READ_BUSY_DOC}` },
      direct: true,
    },
    ({ ctx, entityId, query, res }) => {
      // Unpaged, the body is every matching ticket: read and serialised off the request path.
      if (query.limit === undefined && query.cursor === undefined) {
        return listAllTicketsJson(ctx, entityId, query, (total) => res.setHeader('x-total-count', String(total)));
      }
      const page = listTickets(ctx, entityId, query);
      res.setHeader('x-total-count', String(page.total));
      if (page.nextCursor) res.setHeader('x-next-cursor', page.nextCursor);
      return page.items;
    },
  ),
  route(
    { method: 'post', path: '/api/helpdesk/tickets', summary: 'Create a ticket', tags, access: edit, body: s.createTicketBody, response: s.ticketSchema, status: 201 },
    ({ ctx, entityId, auth, body }) => createTicket(ctx, entityId, actorOf(auth), body),
  ),
  route(
    { method: 'get', path: '/api/helpdesk/tickets/{ticketId}', summary: 'Get a ticket with its timeline (messages oldest first)', tags, access: view, params: s.ticketParams, response: s.ticketWithMessagesSchema },
    ({ ctx, entityId, params }) => getTicket(ctx, entityId, params.ticketId),
  ),
  route(
    {
      method: 'patch',
      path: '/api/helpdesk/tickets/{ticketId}',
      summary: 'Update a ticket (fields, status, assignee)',
      description: 'Status, priority and assignment changes are written to the timeline as system messages and emit `ticket.status_changed` / `ticket.assigned`; every change emits `ticket.updated`.',
      tags,
      access: edit,
      params: s.ticketParams,
      body: s.updateTicketBody,
      response: s.ticketSchema,
      errors: { 409: 'Status move not allowed from the current status' },
    },
    ({ ctx, entityId, auth, params, body }) => updateTicket(ctx, entityId, actorOf(auth), params.ticketId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/helpdesk/tickets/{ticketId}/messages',
      summary: 'Add a reply, internal note or customer message',
      description:
        "The first public agent reply sets firstResponseAt and moves a `new` ticket to `open`; a customer message reopens a `pending` or `resolved` ticket. A closed ticket takes no messages (409). A public agent reply on a ticket with a contact e-mail is e-mailed to the contact when the entity has a support address (see /api/helpdesk/mailbox): `delivery` then shows it queued, sent or failed. Internal notes are never e-mailed.",
      tags,
      access: edit,
      params: s.ticketParams,
      body: s.createMessageBody,
      response: s.messageSchema,
      status: 201,
      errors: { 409: 'Ticket is closed' },
    },
    ({ ctx, entityId, auth, params, body }) => withMailDetails(ctx, entityId, params.ticketId, [addTicketMessage(ctx, entityId, actorOf(auth), params.ticketId, body)])[0],
  ),

  route(
    { method: 'get', path: '/api/helpdesk/categories', summary: 'List ticket categories (by name)', tags, access: view, response: z.array(s.categorySchema) },
    ({ ctx, entityId }) => listCategories(ctx, entityId),
  ),
  route(
    { method: 'post', path: '/api/helpdesk/categories', summary: 'Create a ticket category', description: 'Names are unique within the entity, case-insensitively (409).', tags, access: edit, body: s.createCategoryBody, response: s.categorySchema, status: 201, errors: { 409: 'Name taken' } },
    ({ ctx, entityId, body }) => createCategory(ctx, entityId, body),
  ),
  route(
    { method: 'patch', path: '/api/helpdesk/categories/{categoryId}', summary: 'Rename or describe a category', tags, access: edit, params: s.categoryParams, body: s.updateCategoryBody, response: s.categorySchema, errors: { 409: 'Name taken' } },
    ({ ctx, entityId, params, body }) => updateCategory(ctx, entityId, params.categoryId, body),
  ),
  route(
    { method: 'delete', path: '/api/helpdesk/categories/{categoryId}', summary: 'Delete an unused category', tags, access: edit, params: s.categoryParams, response: z.object({ deleted: z.boolean(), id: z.uuid() }), errors: { 409: 'Category still used by tickets' } },
    ({ ctx, entityId, params }) => deleteCategory(ctx, entityId, params.categoryId),
  ),
];
