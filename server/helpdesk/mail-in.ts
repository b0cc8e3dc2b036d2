import crypto from 'node:crypto';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable, Tx } from '../db/tx.js';
import { helpdeskAttachments, helpdeskEmails, helpdeskTickets } from './tables.js';
import { createTicket } from './tickets.js';
import { addTicketMessage } from './messages.js';
import { writeSystemMessage } from './timeline.js';
import { emailRowId, mailboxOf } from './mail-out.js';
import { markBounced } from './deliveries.js';
import { keepAttachments, type KeptAttachments } from './mail-attachments.js';
import { bareId, bounceReason, ignoreReason, quotedIds, referencedIds } from './mail-filter.js';
import type { Actor, TicketRow } from './present.js';

/** Larger messages are skipped unread (the IMAP size is checked before downloading). */
export const MAX_RAW_BYTES = 25 * 1024 * 1024;
/** As the API takes a message body. */
const MAX_BODY_CHARS = 50_000;

export type IngestResult =
  | { outcome: 'created' | 'appended'; ticketId: string; messageId: string }
  | { outcome: 'duplicate' | 'ignored' | 'too_large' | 'unreadable'; reason?: string };

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** What a customer wrote, as plain text only: the UI never renders a customer's HTML. */
function bodyOf(mail: ParsedMail): string {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a timeline
  const text = (mail.text ?? '').replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').trim();
  if (!text) return '(no text)';
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}\n\n[Shortened: the e-mail was longer than ${MAX_BODY_CHARS.toLocaleString('en')} characters]` : text;
}

/** `Re: Fwd: [#K7Q2M-1001] Printer` → `Printer`, for a follow-up that opens a new ticket. */
const bareSubject = (s: string) => s.replace(/^\s*((re|fwd?|aw|wg|sv|antw)\s*:\s*|\[#[^\]]*\]\s*)+/i, '').trim();

// A final number (`ACME-1042`), an older one (`K7Q2M-1001`) or a provisional one (`ACME-K7Q2M-3`).
const TICKET_TAG = /\[#\s*([A-Z0-9]{2,12}(?:-[A-Z0-9]{2,12})?-\d{1,12})\s*\]/i;

interface Sender {
  email: string;
  name: string | null;
  /** Where replies go: Reply-To when given (web forms send for the customer), else From. */
  contact: string;
}

function senderOf(mail: ParsedMail): Sender | null {
  const from = mail.from?.value.find((a) => a.address);
  const replyTo = mail.replyTo?.value.find((a) => a.address);
  if (!from?.address) return null;
  const email = from.address.toLowerCase();
  const name = clip((from.name || replyTo?.name || '').trim(), 120) || null;
  return { email, name, contact: (replyTo?.address ?? email).toLowerCase() };
}

/** The open thread this e-mail answers: by the Message-IDs it references, else by `[#number]` from the contact. */
function findThread(tx: Tx, entityId: string, mail: ParsedMail, sender: Sender): TicketRow | null {
  const refs = referencedIds(mail);
  if (refs.length) {
    const known = tx.select({ headerId: helpdeskEmails.headerId, ticketId: helpdeskEmails.ticketId }).from(helpdeskEmails).where(and(eq(helpdeskEmails.entityId, entityId), inArray(helpdeskEmails.headerId, refs))).all();
    const byId = new Map(known.map((k) => [k.headerId, k.ticketId]));
    const ticketId = refs.map((r) => byId.get(r)).find((t) => t !== undefined);
    if (ticketId) return tx.select().from(helpdeskTickets).where(and(eq(helpdeskTickets.entityId, entityId), eq(helpdeskTickets.id, ticketId))).get() ?? null;
  }
  const number = TICKET_TAG.exec(mail.subject ?? '')?.[1]?.toUpperCase();
  if (!number) return null;
  // Mail sent while the number was provisional quotes that number: it still names the ticket.
  const ticket = tx.select().from(helpdeskTickets).where(and(eq(helpdeskTickets.entityId, entityId), or(eq(helpdeskTickets.ticketNumber, number), eq(helpdeskTickets.provisionalNumber, number)))).get();
  // A number alone is guessable: only the ticket's own contact may continue it that way.
  const contact = ticket?.contactEmail?.toLowerCase();
  return ticket && (contact === sender.email || contact === sender.contact) ? ticket : null;
}

/** Writes the e-mail into the helpdesk: a new ticket, or a customer message on the thread it answers. */
function writeEmail(ctx: Context, tx: Tx, entityId: string, mail: ParsedMail, sender: Sender, headerId: string, kept: KeptAttachments) {
  const actor: Actor = { type: 'anonymous', id: null, name: `${sender.name ?? sender.email} via e-mail` };
  const thread = findThread(tx, entityId, mail, sender);
  const body = bodyOf(mail);
  let ticketId: string;
  let outcome: 'created' | 'appended';
  if (thread && thread.status !== 'closed') {
    ticketId = thread.id;
    outcome = 'appended';
  } else {
    const subject = clip((thread ? bareSubject(mail.subject ?? '') : (mail.subject ?? '').trim()) || '(no subject)', 200);
    const ticket = createTicket(ctx, entityId, actor, { subject, description: null, priority: 'normal', channel: 'email', contactEmail: sender.contact, contactName: sender.name, categoryId: null, assignedTo: null });
    ticketId = ticket.id;
    outcome = 'created';
    // A closed ticket is final: its follow-up starts a new one that says where it came from.
    if (thread) writeSystemMessage(ctx, tx, entityId, ticketId, `Follow-up to closed ticket ${thread.ticketNumber}`, nowIso(ctx));
  }
  const message = addTicketMessage(ctx, entityId, actor, ticketId, { authorType: 'customer', isInternal: false, body, authorName: sender.name ?? sender.email });
  const now = nowIso(ctx);
  tx.insert(helpdeskEmails)
    .values({ id: emailRowId(entityId, headerId), entityId, ticketId, messageId: message.id, direction: 'in', headerId, fromAddress: sender.email, attachmentsNote: kept.note, createdAt: now })
    .run();
  for (const f of kept.files) tx.insert(helpdeskAttachments).values({ id: ctx.ids.next(), entityId, ticketId, messageId: message.id, ...f, createdAt: now }).run();
  return { outcome, ticketId, messageId: message.id };
}

/** What happened, never what the mail said. */
function logIngest(ctx: Context, entityId: string, r: IngestResult) {
  ctx.log.info({ entityId, outcome: r.outcome, ...('reason' in r ? { reason: r.reason } : {}), ...('ticketId' in r ? { ticketId: r.ticketId } : {}) }, 'helpdesk e-mail');
}

const knownEmail = (db: Queryable, entityId: string, headerId: string) =>
  !!db.select({ id: helpdeskEmails.id }).from(helpdeskEmails).where(and(eq(helpdeskEmails.entityId, entityId), eq(helpdeskEmails.headerId, headerId))).get();

/**
 * Takes one raw e-mail into the entity's helpdesk. Idempotent by Message-ID (a message without
 * one is known by its hash). `within` runs in the same transaction whatever the outcome, so the
 * caller's progress (the last IMAP UID) is saved together with the mail's effect.
 */
export async function ingestEmail(ctx: Context, entityId: string, raw: Buffer, within: (tx: Tx) => void = () => undefined): Promise<IngestResult> {
  const done = (result: IngestResult, effect?: (tx: Tx) => void): IngestResult => {
    write(ctx, (tx) => {
      effect?.(tx);
      within(tx);
    });
    logIngest(ctx, entityId, result);
    return result;
  };
  if (raw.length > MAX_RAW_BYTES) return done({ outcome: 'too_large' });
  // mailparser loads with the first incoming mail, not at start.
  const { simpleParser } = await import('mailparser');
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, { keepCidLinks: true, skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, keepDeliveryStatus: true, checksumAlgo: false, maxHtmlLengthToParse: 2_000_000 });
  } catch {
    return done({ outcome: 'unreadable' });
  }
  const headerId = bareId(mail.messageId) ?? `${crypto.createHash('sha256').update(raw).digest('hex').slice(0, 40)}@no-message-id.invalid`;
  // Our own replies (a copy in the mailbox, a reflected message) are known here and never ingested.
  if (knownEmail(ctx.db, entityId, headerId)) return done({ outcome: 'duplicate' });
  const address = mailboxOf(ctx.db, entityId)?.address ?? null;
  const reason = ignoreReason(mail, address);
  if (reason === 'bounce') {
    const ids = [...new Set([...quotedIds(raw), ...referencedIds(mail)])];
    return done({ outcome: 'ignored', reason }, (tx) => markBounced(ctx, tx, entityId, ids, bounceReason(raw)));
  }
  if (reason) return done({ outcome: 'ignored', reason });
  const sender = senderOf(mail);
  if (!sender) return done({ outcome: 'ignored', reason: 'no-sender' });
  const kept = keepAttachments(ctx, mail.attachments);
  const result = write(ctx, (tx): IngestResult => {
    // Another poll may have taken it meanwhile.
    const written: IngestResult = knownEmail(tx, entityId, headerId) ? { outcome: 'duplicate' } : writeEmail(ctx, tx, entityId, mail, sender, headerId, kept);
    within(tx);
    return written;
  });
  logIngest(ctx, entityId, result);
  return result;
}
