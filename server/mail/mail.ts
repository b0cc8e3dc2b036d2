import { and, asc, count, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import type { Db } from '../db/open.js';
import { mailOutbox, type MailHeaders } from './tables.js';

/** Attempts before a message is given up as failed; backoff 1, 2, 4 … minutes, at most 1 h. */
export const MAX_MAIL_ATTEMPTS = 8;
const BATCH = 20;

export interface MailInput {
  entityId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  ref: Record<string, string>;
  /** From and threading headers (helpdesk replies); absent, the mail goes out from `mailFrom`. */
  headers?: MailHeaders;
}

/** Queues a message in the caller's transaction; the mail loop sends it after commit. */
export function queueMail(tx: Db, ctx: Context, input: MailInput): string {
  const id = ctx.ids.next();
  const now = nowIso(ctx);
  tx.insert(mailOutbox)
    .values({
      id,
      entityId: input.entityId,
      to: input.to,
      subject: input.subject,
      bodySealed: ctx.secrets.seal(JSON.stringify({ text: input.text, html: input.html })),
      ref: input.ref,
      headers: input.headers ?? null,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    })
    .run();
  return id;
}

const transports = new WeakMap<Context, Transporter>();

async function transportOf(ctx: Context): Promise<Transporter | null> {
  if (!ctx.config.smtpUrl) return null;
  let t = transports.get(ctx);
  if (!t) {
    // nodemailer loads with the first mail sent, not at start.
    const { default: nodemailer } = await import('nodemailer');
    t = transports.get(ctx) ?? nodemailer.createTransport(ctx.config.smtpUrl);
    transports.set(ctx, t);
  }
  return t;
}

const bracket = (id: string) => `<${id}>`;

/** The sender and threading headers of a queued mail, as nodemailer takes them. */
function envelopeOf(ctx: Context, h: MailHeaders | null) {
  return {
    from: h?.from ? { name: h.from.name ?? '', address: h.from.address } : ctx.config.mailFrom,
    ...(h?.messageId ? { messageId: bracket(h.messageId) } : {}),
    ...(h?.inReplyTo ? { inReplyTo: bracket(h.inReplyTo) } : {}),
    ...(h?.references?.length ? { references: h.references.map(bracket) } : {}),
  };
}

/**
 * Queues a message that gave up (or whose recipient bounced it) once more, from attempt one;
 * returns false when there is no such message of the entity.
 */
export function requeueMail(tx: Db, ctx: Context, entityId: string, mailId: string, to: string): boolean {
  const res = tx
    .update(mailOutbox)
    .set({ to, status: 'queued', attempts: 0, lastError: null, sentAt: null, nextAttemptAt: nowIso(ctx) })
    .where(and(eq(mailOutbox.entityId, entityId), eq(mailOutbox.id, mailId)))
    .run();
  return res.changes > 0;
}

/** The last delivery error of mails still being retried, by id (for showing why a mail waits). */
export function retryErrors(ctx: Context, entityId: string, mailIds: string[]): Map<string, string> {
  if (mailIds.length === 0) return new Map();
  const rows = ctx.db
    .select({ id: mailOutbox.id, lastError: mailOutbox.lastError })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.entityId, entityId), eq(mailOutbox.status, 'queued'), inArray(mailOutbox.id, mailIds)))
    .all();
  return new Map(rows.filter((r) => r.lastError).map((r) => [r.id, r.lastError!]));
}

function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** (attempts - 1));
}

/** Sends what is due. Without SMTP configured nothing is attempted: mail stays queued. */
export async function sendDueMail(ctx: Context): Promise<{ sent: number; failed: number }> {
  const transport = await transportOf(ctx);
  if (!transport) return { sent: 0, failed: 0 };
  const due = ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, nowIso(ctx))))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(BATCH)
    .all();
  let sent = 0;
  let failed = 0;
  for (const m of due) {
    try {
      const body = JSON.parse(ctx.secrets.open(m.bodySealed).toString('utf8')) as { text: string; html: string };
      const info = await transport.sendMail({ ...envelopeOf(ctx, m.headers), to: m.to, subject: m.subject, text: body.text, html: body.html, headers: { 'X-Bureau-Mail-Id': m.id } });
      ctx.db.transaction((tx) => {
        tx.update(mailOutbox).set({ status: 'sent', attempts: m.attempts + 1, sentAt: nowIso(ctx), messageId: info.messageId ?? null, lastError: null }).where(eq(mailOutbox.id, m.id)).run();
        ctx.events.record(tx, { entityId: m.entityId, type: 'mail.sent', data: { mailId: m.id, to: m.to, subject: m.subject, ref: m.ref } });
      });
      sent++;
    } catch (err) {
      const attempts = m.attempts + 1;
      const message = err instanceof Error ? err.message.slice(0, 300) : 'Send failed';
      const giveUp = attempts >= MAX_MAIL_ATTEMPTS;
      ctx.db.transaction((tx) => {
        tx.update(mailOutbox)
          .set({ attempts, lastError: message, status: giveUp ? 'failed' : 'queued', nextAttemptAt: new Date(ctx.clock.now().getTime() + backoffMs(attempts)).toISOString() })
          .where(eq(mailOutbox.id, m.id))
          .run();
        if (giveUp) ctx.events.record(tx, { entityId: m.entityId, type: 'mail.failed', data: { mailId: m.id, to: m.to, subject: m.subject, ref: m.ref, error: message } });
      });
      ctx.log.warn({ mailId: m.id, attempts, giveUp }, 'mail delivery failed');
      failed++;
    }
  }
  return { sent, failed };
}

export function mailStatus(ctx: Context, entityId: string) {
  const counts = ctx.db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).where(eq(mailOutbox.entityId, entityId)).groupBy(mailOutbox.status).all();
  const by = Object.fromEntries(counts.map((c) => [c.status, c.n])) as Record<string, number>;
  const lastError =
    ctx.db
      .select({ lastError: mailOutbox.lastError })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.entityId, entityId), eq(mailOutbox.status, 'queued')))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(1)
      .get()?.lastError ?? null;
  return { configured: Boolean(ctx.config.smtpUrl), queued: by.queued ?? 0, sent: by.sent ?? 0, failed: by.failed ?? 0, lastError };
}

export function listMail(ctx: Context, entityId: string, limit: number) {
  return ctx.db
    .select({ id: mailOutbox.id, to: mailOutbox.to, subject: mailOutbox.subject, status: mailOutbox.status, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError, ref: mailOutbox.ref, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt, nextAttemptAt: mailOutbox.nextAttemptAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.entityId, entityId))
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all();
}
