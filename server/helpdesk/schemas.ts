import { z } from 'zod';
import { entityIdField } from '../http/entity-scope.js';
import { optInPaging } from '../http/cursor.js';

export const TICKET_STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_CHANNELS = ['email', 'web', 'phone', 'chat', 'api'] as const;
export const AUTHOR_TYPES = ['agent', 'customer', 'system'] as const;

export type TicketStatus = (typeof TICKET_STATUSES)[number];

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });
const required = (type = 'a string') => ({
  error: (iss: { input: unknown }) => (iss.input === undefined || iss.input === null ? 'is required' : `must be ${type}`),
});

export const ticketStatusSchema = z.enum(TICKET_STATUSES, oneOf(TICKET_STATUSES)).meta({
  description:
    'Lifecycle modelled on Zammad: `new` → `open` → `pending` ⇄ `open` → `resolved` → `closed`. Allowed moves: new→open|pending|resolved, open→pending|resolved, pending→open|resolved, resolved→open (reopen)|closed; `closed` is final. Any other move is 409. A public agent reply moves `new` to `open`; a customer message moves `pending` or `resolved` back to `open`.',
});
export const ticketPrioritySchema = z.enum(TICKET_PRIORITIES, oneOf(TICKET_PRIORITIES));
export const ticketChannelSchema = z.enum(TICKET_CHANNELS, oneOf(TICKET_CHANNELS)).meta({ description: 'Where the ticket came from; default `api`.' });

const subject = z.string(required()).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const description = z.string('must be a string').max(20_000, 'must be at most 20000 characters');
const contactEmail = z
  .string('must be a string')
  .trim()
  .toLowerCase()
  .pipe(z.email('must be a valid e-mail address'));
const contactName = z.string('must be a string').trim().max(120, 'must be at most 120 characters');
const optionalUuid = () => z.uuid('must be a UUID').nullable().optional();

export const ticketSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    ticketNumber: z.string().meta({
      description:
        "Human-friendly number `<prefix>-<sequence>` (e.g. `ACME-1042`), one series per business: the prefix comes from the business's name unless an owner chose one. For a business linked to a hosted instance the hosted instance assigns it; until the ticket has reached it, the number is provisional (`numberProvisional`), made of the prefix, this installation's tag and a count (`ACME-K7Q2M-3`). Mail quoting either number threads to the ticket. Tickets from before keep their numbers (e.g. `K7Q2M-1001`).",
    }),
    numberProvisional: z.boolean().meta({ description: 'True while the number is provisional: the hosted instance has not assigned the final one yet (the ticket was created offline or has not synced).' }),
    subject: z.string(),
    description: z.string().nullable(),
    status: ticketStatusSchema,
    priority: ticketPrioritySchema,
    channel: ticketChannelSchema,
    contactEmail: z.string().nullable(),
    contactName: z.string().nullable(),
    categoryId: z.uuid().nullable(),
    createdBy: z.uuid().nullable().meta({ description: 'The user who created the ticket; null when created with an API key.' }),
    assignedTo: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    firstResponseAt: z.string().nullable().meta({ description: 'Set by the first public (non-internal) agent reply; never changes afterwards.' }),
    resolvedAt: z.string().nullable().meta({ description: 'Set on entering `resolved`; cleared when the ticket is reopened.' }),
    closedAt: z.string().nullable().meta({ description: 'Set on entering `closed`.' }),
  })
  .meta({ id: 'Ticket' });

export const messageSchema = z
  .object({
    id: z.uuid(),
    ticketId: z.uuid(),
    authorType: z.enum(AUTHOR_TYPES).meta({
      description: '`agent` (a member or an integration acting for the business), `customer` (the contact), or `system` (written by the server for status changes and assignments; internal).',
    }),
    authorId: z.uuid().nullable(),
    authorName: z.string(),
    body: z.string(),
    isInternal: z.boolean().meta({ description: 'Internal notes are visible to members only and never count as a first response.' }),
    createdAt: z.string(),
    delivery: z
      .object({
        state: z.enum(['queued', 'sent', 'failed']),
        to: z.string(),
        error: z.string().nullable().meta({ description: 'Why it failed; while queued, the last error of a retry (the outbox retries with backoff before giving up).' }),
        sentAt: z.string().nullable(),
      })
      .nullable()
      .meta({ description: 'E-mail delivery of a public agent reply to the contact; null when the message was not e-mailed (internal note, no contact e-mail, or no support address configured).' }),
    email: z
      .object({ messageId: z.string().meta({ description: 'The Message-ID header, without angle brackets.' }), from: z.string() })
      .nullable()
      .meta({ description: 'Set on messages that came in by e-mail.' }),
    attachments: z
      .array(z.object({ id: z.uuid(), filename: z.string(), contentType: z.string(), size: z.number().int() }).meta({ id: 'TicketAttachment' }))
      .meta({ description: 'Files that came with an e-mail; download from /api/helpdesk/tickets/{ticketId}/attachments/{attachmentId}.' }),
    attachmentsNote: z.string().nullable().meta({ description: 'Attachments that were not kept (over the size limit), in words.' }),
  })
  .meta({ id: 'TicketMessage' });

export const ticketWithMessagesSchema = ticketSchema.extend({ messages: z.array(messageSchema).meta({ description: 'Oldest first: one timeline of replies, notes and system events.' }) }).meta({ id: 'TicketWithMessages' });

export const createTicketBody = z
  .strictObject({
    entityId: entityIdField,
    subject,
    description: description.nullable().optional(),
    priority: ticketPrioritySchema.default('normal'),
    channel: ticketChannelSchema.default('api'),
    contactEmail: contactEmail.nullable().optional(),
    contactName: contactName.nullable().optional(),
    categoryId: optionalUuid().meta({ description: 'A category of this entity (see /api/helpdesk/categories).' }),
    assignedTo: optionalUuid().meta({ description: 'A user id; must be a member of the entity.' }),
  })
  .meta({ description: 'A new ticket always starts as `new`. Unknown fields are rejected.' });

export const updateTicketBody = z
  .strictObject({
    entityId: entityIdField,
    subject: subject.optional(),
    description: description.nullable().optional(),
    status: ticketStatusSchema.optional(),
    priority: ticketPrioritySchema.optional(),
    channel: ticketChannelSchema.optional(),
    contactEmail: contactEmail.nullable().optional(),
    contactName: contactName.nullable().optional(),
    categoryId: optionalUuid(),
    assignedTo: optionalUuid().meta({ description: 'A member of the entity, or null to unassign.' }),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'entityId'), 'Nothing to update: give at least one ticket field')
  .meta({ description: 'Any subset of the ticket fields. A status change must be an allowed move (else 409). Unknown fields are rejected.' });

export type CreateTicketInput = z.output<typeof createTicketBody>;
export type UpdateTicketInput = z.output<typeof updateTicketBody>;

export const createMessageBody = z
  .strictObject({
    entityId: entityIdField,
    body: z.string(required()).trim().min(1, 'must not be empty').max(50_000, 'must be at most 50000 characters'),
    isInternal: z.boolean('must be a boolean').default(false),
    authorType: z
      .enum(['agent', 'customer'], { error: 'must be agent or customer (system messages are written by the server)' })
      .default('agent')
      .meta({ description: '`agent` (default) for a reply or note by the business; `customer` to record a message from the contact (e.g. an e-mail gateway). A customer message cannot be internal.' }),
    authorName: z.string('must be a string').trim().min(1).max(120).optional().meta({ description: 'Defaults to the signed-in user, the API key name, or for customers the ticket contact.' }),
  })
  .refine((b) => !(b.authorType === 'customer' && b.isInternal), { message: 'A customer message cannot be an internal note', path: ['isInternal'] });

export type CreateMessageInput = z.output<typeof createMessageBody>;

export const listTicketsQuery = z.object({
  entityId: z.string().optional(),
  status: ticketStatusSchema.optional(),
  priority: ticketPrioritySchema.optional(),
  assignedTo: z.uuid('must be a UUID').optional(),
  categoryId: z.uuid('must be a UUID').optional(),
  search: z.string().trim().max(200, 'must be at most 200 characters').optional().meta({ description: 'Case-insensitive substring of the subject.' }),
  q: z
    .string()
    .trim()
    .max(200, 'must be at most 200 characters')
    .optional()
    .meta({ description: 'Full-text search: tickets whose subject, description, contact, number or any message contains every word (a word matches words it begins, ignoring case and accents).' }),
  ticketNumber: z.string().trim().max(40, 'must be at most 40 characters').optional().meta({ description: 'Case-insensitive substring of the ticket number (e.g. `1042` or `abc-1042`).' }),
  contact: z.string().trim().max(200, 'must be at most 200 characters').optional().meta({ description: "Case-insensitive substring of the contact's name or e-mail." }),
  ...optInPaging('ticket'),
});
export type ListTicketsQuery = z.output<typeof listTicketsQuery>;

export const ticketParams = z.object({ ticketId: z.uuid('must be a UUID') });

export const categorySchema = z
  .object({ id: z.uuid(), entityId: z.uuid(), name: z.string(), description: z.string().nullable(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'TicketCategory' });
const categoryName = z.string(required()).trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters');
export const createCategoryBody = z.strictObject({ entityId: entityIdField, name: categoryName, description: z.string().max(500).nullable().optional() });
export const updateCategoryBody = z
  .strictObject({ entityId: entityIdField, name: categoryName.optional(), description: z.string().max(500).nullable().optional() })
  .refine((b) => b.name !== undefined || b.description !== undefined, 'Nothing to update: give name or description');
export const categoryParams = z.object({ categoryId: z.uuid('must be a UUID') });

export const ticketNumberingSchema = z
  .object({
    prefix: z.string().meta({ description: 'What ticket numbers start with, e.g. `ACME` in `ACME-1042`.' }),
    chosen: z.boolean().meta({ description: "True when an owner chose it; false when it is derived from the business's name." }),
    assignedBy: z.enum(['hosted', 'device']).meta({ description: '`hosted`: the business is linked and the hosted instance assigns final numbers (provisional until a ticket syncs); `device`: this device counts the series.' }),
  })
  .meta({ id: 'TicketNumbering' });

export const setTicketPrefixBody = z.strictObject({
  entityId: z.uuid('must be a UUID').optional(),
  prefix: z
    .string('must be a string')
    .trim()
    .toUpperCase()
    .regex(/^[A-Z][A-Z0-9]{1,5}$/, 'must be 2 to 6 letters or digits, starting with a letter')
    .nullable()
    .meta({ description: 'The new prefix (upper-cased), or null to derive it from the name again.' }),
});
