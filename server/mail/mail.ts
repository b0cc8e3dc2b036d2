import { and, asc, count, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { hostedMailRelay, reasonGone, routeOf } from './routing.js';
import { getSmtpSettings, smtpTransport } from './smtp-settings.js';
import { mailOutbox, type MailHeaders } from './tables.js';
import { enqueueMail, type MailMessage, type MailOutbox, type MailRef, type MailToQueue } from './enqueue.js';
import { MAIL_BATCH, MAX_MAIL_ATTEMPTS, mailBackoffMs, sendDueFrom, type Delivery, type MailFailure, type MailQueueStore, type RetryPolicy } from './queue.js';

export { MAX_MAIL_ATTEMPTS } from './queue.js';

/** Backoff 1, 2, 4 … minutes, at most 1 h; 8 attempts; a 400 or 413 from the hosted instance fails at once. */
const POLICY: RetryPolicy = {
  maxAttempts: MAX_MAIL_ATTEMPTS,
  batch: MAIL_BATCH,
  backoffMs: (attempts) => mailBackoffMs(attempts, { baseMs: 60_000, capMs: 60 * 60_000 }),
  permanent: (err) => PERMANENT.has((err as { status?: number }).status ?? 0),
  retryAfterMs: (err) => ((err as { retryAfterSeconds?: number | null }).retryAfterSeconds ?? 0) * 1000,
};

export interface MailInput {
  entityId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  ref: MailRef;
  /** From and threading headers (helpdesk replies); absent, the mail goes out from `mailFrom`. */
  headers?: MailHeaders;
  /**
   * One mail per purpose across this entity's devices (e.g. `completed:<request>:<address>`):
   * through the hosted instance, the second mail under a key is dropped rather than sent.
   */
  purposeKey?: string;
}

/** This device's outbox in `tx` (enqueue.ts): the body sealed at rest; answers the mail's id. */
function desktopOutbox(ctx: Context, tx: Tx): MailOutbox<string, MailToQueue & { message: MailMessage }> {
  return {
    add(mail) {
      const m = mail.message;
      const id = ctx.ids.next();
      tx.insert(mailOutbox)
        .values({
          id,
          entityId: mail.entityId,
          to: m.to,
          subject: m.subject,
          bodySealed: ctx.secrets.seal(JSON.stringify({ text: m.text, html: m.html })),
          ref: mail.ref,
          headers: m.headers ?? null,
          purposeKey: mail.purposeKey,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: mail.queuedAt,
          createdAt: mail.queuedAt,
        })
        .run();
      return id;
    },
  };
}

/** Queues a message in the caller's transaction (enqueue.ts `enqueueMail`); the mail loop sends it after commit. */
export function queueMail(ctx: Context, tx: Tx, input: MailInput): string {
  const { entityId, to, subject, text, html, headers, purposeKey } = input;
  return enqueueMail(desktopOutbox(ctx, tx), { entityId, ref: input.ref, purposeKey, message: { to, subject, text, html, headers } }, nowIso(ctx));
}

const bracket = (id: string) => `<${id}>`;

/** The sender and threading headers of a queued mail, as nodemailer takes them. */
function envelopeOf(defaultFrom: string | { name: string; address: string }, h: MailHeaders | null) {
  return {
    from: h?.from ? { name: h.from.name ?? '', address: h.from.address } : defaultFrom,
    ...(h?.messageId ? { messageId: bracket(h.messageId) } : {}),
    ...(h?.inReplyTo ? { inReplyTo: bracket(h.inReplyTo) } : {}),
    ...(h?.references?.length ? { references: h.references.map(bracket) } : {}),
  };
}

/**
 * Queues a message that gave up (or whose recipient bounced it) once more, from attempt one;
 * returns false when there is no such message of the entity.
 */
export function requeueMail(ctx: Context, tx: Tx, entityId: string, mailId: string, to: string): boolean {
  const res = tx
    .update(mailOutbox)
    .set({ to, status: 'queued', attempts: 0, lastError: null, sentAt: null, via: null, dropReason: null, nextAttemptAt: nowIso(ctx) })
    .where(and(eq(mailOutbox.entityId, entityId), eq(mailOutbox.id, mailId)))
    .run();
  return res.changes > 0;
}

/**
 * Drops, in the caller's transaction, the still-queued mails of the entity whose `ref` has the
 * given kind and fields (a request's invitations when it is cancelled); how many.
 */
export function dropQueuedMail(tx: Tx, entityId: string, ref: { kind: string } & Record<string, string>, reason: string): number {
  const queued = tx.select({ id: mailOutbox.id, ref: mailOutbox.ref }).from(mailOutbox).where(and(eq(mailOutbox.entityId, entityId), eq(mailOutbox.status, 'queued'))).all();
  const matching = queued.filter((m) => Object.entries(ref).every(([k, v]) => m.ref[k] === v)).map((m) => m.id);
  if (matching.length > 0) tx.update(mailOutbox).set({ status: 'dropped', dropReason: reason }).where(inArray(mailOutbox.id, matching)).run();
  return matching.length;
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

type MailRow = typeof mailOutbox.$inferSelect;
type Sent = { via: 'smtp' | 'hosted'; messageId: string | null };

/** A mail waiting for this device's changes to reach the hosted instance: the next sync cycle is near. */
const CATCH_UP_WAIT_MS = 2_000;

const later = (ctx: Context, ms: number) => new Date(ctx.clock.now().getTime() + ms).toISOString();

/**
 * Sends what is due: through this install's SMTP server or the hosted instance (`routeOf`).
 * Mail whose reason is gone is dropped; mail with nowhere to go stays queued (the status says why).
 */
export async function sendDueMail(ctx: Context): Promise<{ sent: number; failed: number; dropped: number }> {
  const counts = { sent: 0, failed: 0, dropped: 0 };
  const now = nowIso(ctx);
  const waiting = ctx.db.selectDistinct({ entityId: mailOutbox.entityId }).from(mailOutbox).where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now))).all();
  if (waiting.length === 0) return counts;
  const smtp = await smtpTransport(ctx);
  // Mail of an entity with nowhere to go is not looked at (it keeps its place): the others' goes out.
  const routable = waiting.map((w) => w.entityId).filter((e) => routeOf(ctx, e, null, smtp !== null) !== null);
  if (routable.length === 0) return counts;
  return sendDueFrom(desktopMailQueue(ctx, routable), (m) => deliver(ctx, m, smtp), POLICY, ctx.clock);
}

/** The queue in `mail_outbox`, for the entities whose mail has somewhere to go. One process sends: a claim always holds. */
function desktopMailQueue(ctx: Context, entityIds: string[]): MailQueueStore<MailRow, Sent> {
  return {
    async due(limit) {
      return ctx.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, nowIso(ctx)), inArray(mailOutbox.entityId, entityIds)))
        .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
        .limit(limit)
        .all();
    },
    claim: async () => true,
    sent: async (m, sent) => markSent(ctx, m, sent),
    dropped: async (m, reason) => dropMail(ctx, m, reason),
    failed: async (m, failure) => markFailedAttempt(ctx, m, failure),
    waiting: async (m, retryAt) => void ctx.db.update(mailOutbox).set({ nextAttemptAt: retryAt }).where(eq(mailOutbox.id, m.id)).run(),
  };
}

/** Sends one mail through its route, or says why it is dropped or waits; a throw is a failed attempt. */
async function deliver(ctx: Context, m: MailRow, smtp: Awaited<ReturnType<typeof smtpTransport>>): Promise<Delivery<Sent>> {
  const gone = reasonGone(ctx, ctx.db, m.entityId, m.ref);
  if (gone) return { status: 'dropped', reason: gone };
  const route = routeOf(ctx, m.entityId, m.headers, smtp !== null)!;
  const relay = hostedMailRelay(ctx);
  if (route === 'hosted' && !relay!.caughtUp(ctx, m.entityId)) return { status: 'waiting', retryAt: later(ctx, CATCH_UP_WAIT_MS) };
  const body = JSON.parse(ctx.secrets.open(m.bodySealed).toString('utf8')) as { text: string; html: string };
  if (route === 'hosted') {
    try {
      const answer = await relay!.send(ctx, { id: m.id, entityId: m.entityId, to: m.to, subject: m.subject, text: body.text, html: body.html, ref: m.ref, headers: m.headers, purposeKey: m.purposeKey });
      if (answer.status === 'dropped') return { status: 'dropped', reason: answer.reason ?? 'The hosted instance did not send it' };
      return { status: 'sent', sent: { via: 'hosted', messageId: null } };
    } catch (err) {
      // A hosted instance without SMTP of its own (503) cannot send: this device's SMTP does, when it has one.
      if (!(smtp && (err as { status?: number }).status === 503)) throw err;
    }
  }
  const info = (await smtp!.transport.sendMail({ ...envelopeOf(smtp!.from, m.headers), to: m.to, subject: m.subject, text: body.text, html: body.html, headers: { 'X-Bureau-Mail-Id': m.id } })) as { messageId?: string };
  return { status: 'sent', sent: { via: 'smtp', messageId: info.messageId ?? null } };
}

function markSent(ctx: Context, m: MailRow, { via, messageId }: Sent): void {
  write(ctx, (tx) => {
    tx.update(mailOutbox).set({ status: 'sent', via, attempts: m.attempts + 1, sentAt: nowIso(ctx), messageId, lastError: null }).where(eq(mailOutbox.id, m.id)).run();
    ctx.events.record(tx, { entityId: m.entityId, type: 'mail.sent', data: { mailId: m.id, to: m.to, subject: m.subject, ref: m.ref, via } });
  });
}

function dropMail(ctx: Context, m: MailRow, reason: string): void {
  ctx.db.update(mailOutbox).set({ status: 'dropped', dropReason: reason.slice(0, 300) }).where(eq(mailOutbox.id, m.id)).run();
  ctx.log.info({ mailId: m.id, kind: m.ref.kind }, 'queued mail dropped: its reason is gone');
}

/** Refusals no retry can change (bad input, too large): the mail fails at once. */
const PERMANENT = new Set([400, 413]);

function markFailedAttempt(ctx: Context, m: MailRow, f: MailFailure): void {
  write(ctx, (tx) => {
    tx.update(mailOutbox)
      .set({ attempts: f.attempts, lastError: f.lastError, status: f.giveUp ? 'failed' : 'queued', nextAttemptAt: f.nextAttemptAt })
      .where(eq(mailOutbox.id, m.id))
      .run();
    if (f.giveUp) ctx.events.record(tx, { entityId: m.entityId, type: 'mail.failed', data: { mailId: m.id, to: m.to, subject: m.subject, ref: m.ref, error: f.lastError } });
  });
  ctx.log.warn({ mailId: m.id, attempts: f.attempts, giveUp: f.giveUp }, 'mail delivery failed');
}

/** Where the entity's mail (with these headers) would go now, or null: it would wait. */
export function mailRouteOf(ctx: Context, entityId: string, headers: MailHeaders | null = null): 'smtp' | 'hosted' | null {
  return routeOf(ctx, entityId, headers, getSmtpSettings(ctx).source !== null);
}

/**
 * The entity's outgoing mail, told honestly: where it goes (this install's SMTP, the hosted
 * instance, or nowhere yet), how many wait and why.
 */
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
  const smtp = getSmtpSettings(ctx).source;
  const linked = hostedMailRelay(ctx)?.linked(ctx, entityId) ?? false;
  const route = routeOf(ctx, entityId, null, smtp !== null);
  const queued = by.queued ?? 0;
  const waitingReason = queued === 0 ? null : !route ? 'No SMTP server is set on this device and the business is not linked to a hosted instance: mail waits until one of them is.' : lastError;
  return { configured: route !== null, route, smtp, linked, queued, sent: by.sent ?? 0, failed: by.failed ?? 0, dropped: by.dropped ?? 0, lastError, waitingReason };
}

export function listMail(ctx: Context, entityId: string, limit: number) {
  return ctx.db
    .select({ id: mailOutbox.id, to: mailOutbox.to, subject: mailOutbox.subject, status: mailOutbox.status, via: mailOutbox.via, dropReason: mailOutbox.dropReason, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError, ref: mailOutbox.ref, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt, nextAttemptAt: mailOutbox.nextAttemptAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.entityId, entityId))
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all();
}
