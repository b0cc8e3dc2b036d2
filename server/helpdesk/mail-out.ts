import { and, asc, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable, Tx } from '../db/tx.js';
import { nameBasedId } from '../db/ids.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import { queueMail, requeueMail } from '../mail/index.js';
import { helpdeskDeliveries, helpdeskEmails, helpdeskMailboxes, helpdeskMessages } from './tables.js';
import { findTicket } from './tickets.js';
import type { MessageRow, TicketRow } from './present.js';

type MailboxRow = typeof helpdeskMailboxes.$inferSelect;

/** The id of a thread row: name-based on the Message-ID, so one e-mail is one row on every device. */
export const emailRowId = (entityId: string, headerId: string) => nameBasedId('helpdesk_email', entityId, headerId);

/** Our Message-ID for a timeline message: unique, and in our own domain as RFC 5322 asks. */
export const ourHeaderId = (messageId: string, address: string) => `${messageId}@${address.split('@')[1]}`;

/** Keeps References bounded as mail clients do: the first of the thread and the latest ones. */
const MAX_REFERENCES = 10;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const htmlLines = (s: string) => escapeHtml(s).replace(/\r?\n/g, '<br>\n');

/** `[#K7Q2M-1001] Subject`, with `Re: ` once the thread has mail (as a mail client replies). */
export function replySubject(ticket: TicketRow, isReply: boolean): string {
  const tagged = `[#${ticket.ticketNumber}] ${ticket.subject}`;
  return isReply && !/^(re|aw|sv|antw):/i.test(ticket.subject) ? `Re: ${tagged}` : tagged;
}

interface Composed {
  subject: string;
  text: string;
  html: string;
  inReplyTo?: string;
  references: string[];
}

/** The reply as an e-mail: threaded after the ticket's earlier mail, signature appended. */
function composeReply(tx: Tx, mailbox: MailboxRow, ticket: TicketRow, message: MessageRow, ownHeaderId: string): Composed {
  const thread = tx
    .select({ headerId: helpdeskEmails.headerId, direction: helpdeskEmails.direction })
    .from(helpdeskEmails)
    .where(and(eq(helpdeskEmails.entityId, ticket.entityId), eq(helpdeskEmails.ticketId, ticket.id)))
    .orderBy(asc(helpdeskEmails.createdAt), asc(helpdeskEmails.id))
    .all()
    .filter((e) => e.headerId !== ownHeaderId);
  const ids = thread.map((e) => e.headerId);
  const references = ids.length > MAX_REFERENCES ? [ids[0], ...ids.slice(-(MAX_REFERENCES - 1))] : ids;
  // A reply answers the customer's latest mail; without one, our own latest.
  const inReplyTo = [...thread].reverse().find((e) => e.direction === 'in')?.headerId ?? ids.at(-1);
  const signature = mailbox.signature?.trim() ? mailbox.signature.trim() : null;
  const text = signature ? `${message.body}\n\n-- \n${signature}\n` : `${message.body}\n`;
  const html =
    `<div>${htmlLines(message.body)}</div>` + (signature ? `\n<div style="color:#555555">-- <br>\n${htmlLines(signature)}</div>` : '');
  return { subject: replySubject(ticket, thread.length > 0), text, html, inReplyTo, references };
}

function queueComposed(ctx: Context, tx: Tx, mailbox: MailboxRow, ticket: TicketRow, message: MessageRow, headerId: string, to: string): string {
  const c = composeReply(tx, mailbox, ticket, message, headerId);
  return queueMail(ctx, tx, {
    entityId: ticket.entityId,
    to,
    subject: c.subject,
    text: c.text,
    html: c.html,
    ref: { kind: 'helpdesk_reply', ticketId: ticket.id, messageId: message.id },
    headers: { from: { name: mailbox.displayName, address: mailbox.address }, messageId: headerId, inReplyTo: c.inReplyTo, references: c.references },
  });
}

export function mailboxOf(db: Queryable, entityId: string): MailboxRow | undefined {
  return db.select().from(helpdeskMailboxes).where(eq(helpdeskMailboxes.entityId, entityId)).get();
}

/**
 * A public agent reply goes to the ticket's contact through the mail outbox, in the transaction
 * that writes the message (so neither exists without the other). Internal notes never do.
 */
export function queueTicketReply(ctx: Context, tx: Tx, ticket: TicketRow, message: MessageRow): void {
  if (message.isInternal || message.authorType !== 'agent' || !ticket.contactEmail) return;
  const mailbox = mailboxOf(tx, ticket.entityId);
  if (!mailbox) return;
  const headerId = ourHeaderId(message.id, mailbox.address);
  const mailId = queueComposed(ctx, tx, mailbox, ticket, message, headerId, ticket.contactEmail);
  const now = nowIso(ctx);
  tx.insert(helpdeskEmails)
    .values({ id: emailRowId(ticket.entityId, headerId), entityId: ticket.entityId, ticketId: ticket.id, messageId: message.id, direction: 'out', headerId, fromAddress: mailbox.address, attachmentsNote: null, createdAt: now })
    .run();
  tx.insert(helpdeskDeliveries).values({ messageId: message.id, entityId: ticket.entityId, ticketId: ticket.id, to: ticket.contactEmail, state: 'queued', error: null, mailId, sentAt: null, updatedAt: now }).run();
}

/**
 * Sends a failed reply again, to the ticket's contact as it is now, under the same Message-ID
 * (a copy that did arrive after all is then one message to the customer's client).
 */
export function resendTicketReply(ctx: Context, entityId: string, ticketId: string, messageId: string): void {
  write(ctx, (tx) => {
    const ticket = findTicket(tx, entityId, ticketId);
    const message = tx
      .select()
      .from(helpdeskMessages)
      .where(and(eq(helpdeskMessages.entityId, entityId), eq(helpdeskMessages.ticketId, ticketId), eq(helpdeskMessages.id, messageId)))
      .get();
    if (!message) throw new NotFoundError('Message not found');
    const delivery = tx.select().from(helpdeskDeliveries).where(and(eq(helpdeskDeliveries.entityId, entityId), eq(helpdeskDeliveries.messageId, messageId))).get();
    if (!delivery) throw new ConflictError('This message was not sent by e-mail');
    if (delivery.state !== 'failed') throw new ConflictError(`Only a failed delivery can be sent again (this one is ${delivery.state})`);
    if (!ticket.contactEmail) throw new ConflictError('The ticket has no contact e-mail to send to');
    const mailbox = mailboxOf(tx, entityId);
    if (!mailbox) throw new ConflictError('No support address is configured: set one in Settings → Helpdesk e-mail');
    const headerId = tx.select({ headerId: helpdeskEmails.headerId }).from(helpdeskEmails).where(and(eq(helpdeskEmails.entityId, entityId), eq(helpdeskEmails.messageId, messageId))).get()?.headerId ?? ourHeaderId(messageId, mailbox.address);
    // The outbox row lives on the device that first sent it; elsewhere the reply is composed anew.
    const mailId = requeueMail(ctx, tx, entityId, delivery.mailId, ticket.contactEmail) ? delivery.mailId : queueComposed(ctx, tx, mailbox, ticket, message, headerId, ticket.contactEmail);
    tx.update(helpdeskDeliveries)
      .set({ state: 'queued', error: null, to: ticket.contactEmail, mailId, sentAt: null, updatedAt: nowIso(ctx) })
      .where(and(eq(helpdeskDeliveries.entityId, entityId), eq(helpdeskDeliveries.messageId, messageId)))
      .run();
  });
}
