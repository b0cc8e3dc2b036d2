// Shared by the helpdesk e-mail tests: real MIME built by nodemailer, a server with the
// support mailbox on a test dovecot, and the polls and sends the tests drive by hand.
import nodemailer from 'nodemailer';
import { simpleParser, type ParsedMail } from 'mailparser';
import { pollMailbox } from '../../server/helpdesk/mail-watch.js';
import type { TestDovecot } from '../helpers/dovecot.js';
import type { SessionClient, TestServer } from '../helpers/server.js';

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

export interface MailSpec {
  from: string;
  to?: string;
  subject: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer | string; contentType?: string }[];
  replyTo?: string;
}

let seq = 0;
/** A unique Message-ID in the customer's domain. */
export const newMessageId = (domain = 'customer.test') => `<m${Date.now()}.${++seq}@${domain}>`;

/** An RFC 822 message as a mail client would write it. */
export async function rfc822(spec: MailSpec): Promise<Buffer> {
  const info = await composer.sendMail({
    from: spec.from,
    to: spec.to ?? 'support@acme.test',
    subject: spec.subject,
    text: spec.text,
    html: spec.html,
    messageId: spec.messageId ?? newMessageId(),
    inReplyTo: spec.inReplyTo,
    references: spec.references,
    headers: spec.headers,
    attachments: spec.attachments,
    replyTo: spec.replyTo,
  });
  return info.message as Buffer;
}

export const parse = (raw: Buffer | string): Promise<ParsedMail> => simpleParser(raw);

/** Polls the entity's mailbox as the loop would, and fails loudly when the mailbox could not be read. */
export async function poll(server: TestServer, entityId: string) {
  const result = await pollMailbox(server.ctx, entityId);
  if (!result) throw new Error(`mailbox poll failed: ${JSON.stringify(server.ctx.sqlite.prepare('select state, last_error from helpdesk_mailbox_imap where entity_id = ?').get(entityId))}`);
  return result;
}

/** Runs the loops once (the mail outbox sends) and hands the outbox events to consumers. */
export async function sendQueued(server: TestServer) {
  await server.ctx.loops.runAll();
  server.ctx.events.drain();
}

export const SUPPORT = 'support@acme.test';

/** Points the owner's entity at the support mailbox on dovecot. */
export async function connectMailbox(owner: SessionClient, dovecot: TestDovecot, password: string, extra: Record<string, unknown> = {}) {
  const res = await owner.put('/api/helpdesk/mailbox', {
    address: SUPPORT,
    displayName: 'Acme Support',
    signature: 'Acme Support team\nhttps://acme.test/help',
    imap: { host: dovecot.host, port: dovecot.port, tls: false, user: SUPPORT, password },
    ...extra,
  });
  if (res.status !== 200) throw new Error(`mailbox PUT failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function ticketsOf(owner: SessionClient) {
  const res = await owner.get('/api/helpdesk/tickets');
  return res.body as { id: string; ticketNumber: string; subject: string; status: string; channel: string; contactEmail: string | null; contactName: string | null }[];
}

export async function ticketDetail(owner: SessionClient, id: string) {
  const res = await owner.get(`/api/helpdesk/tickets/${id}`);
  if (res.status !== 200) throw new Error(`ticket GET failed: ${res.status}`);
  return res.body as {
    id: string;
    ticketNumber: string;
    status: string;
    messages: {
      id: string;
      authorType: string;
      authorName: string;
      body: string;
      isInternal: boolean;
      delivery: { state: string; to: string; error: string | null; sentAt: string | null } | null;
      email: { messageId: string; from: string } | null;
      attachments: { id: string; filename: string; contentType: string; size: number }[];
      attachmentsNote: string | null;
    }[];
  };
}
