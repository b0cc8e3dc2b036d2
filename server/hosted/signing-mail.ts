// Mail the hosted instance sends for an entity while its devices may be offline: the next
// signer's invitation (sequential order) and, once a device's completion arrives, everyone's
// signed copy; and, through the same loop and transport, the mail devices hand over
// (`relayed-mail.ts`). Queued in the transaction that makes it due (a push, a signature), sent by a loop
// with bounded retries; one mail per purpose (`dedupe_key`), so a repeated push queues nothing.
import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import { v7 as uuidv7 } from 'uuid';
import { sha256Hex } from '../auth/index.js';
import { signedCopyMailContent, signedName, signingMailContent, signingUrl } from '../documents/index.js';
import type { Change } from '../sync/protocol.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { readBlob } from './blobs.js';
import { mirroredRow, mirroredRowsOfRequest, notDeleted, recordHostedChanges } from './mirror.js';
import { reportUnreadableRow, UnreadableRowError } from './read-row.js';
import { asRow, loadRequest } from './signing-load.js';
import { hostedMailingStore } from './signing-store.js';
import { inviteSigners, remindSigners, reminderDue, SYSTEM_ACTOR, signersWhoseTurn, type RequestRow, type SignerRow } from '../documents/index.js';
import { entities, hostedMail, rows } from './schema.js';
import { sendDueRelayedMail } from './relayed-mail.js';
import type { HostedTx } from './store.js';
import { enqueueMail, sendDueFrom, signingMailRef, signingPurposeKey, type Delivery, type MailOutbox, type MailToQueue } from '../mail/index.js';
import { HOSTED_MAIL_POLICY, hostedMailQueue, type SentInfo } from './mail-queue.js';

export { MAX_MAIL_ATTEMPTS as MAX_HOSTED_MAIL_ATTEMPTS } from '../mail/index.js';

type MailKind = (typeof hostedMail.$inferSelect)['kind'];
/** What this instance queues: a mail to a signer, once per purpose. */
type HostedMailToQueue = MailToQueue & { ref: { kind: MailKind; requestId: string; signerId: string }; purposeKey: string };

/**
 * This instance's outbox (`hosted_mail`, mail/enqueue.ts) in `tx`: a signer's mail, its message
 * written when it is sent; one mail per purpose (`dedupe_key`), so a repeated push queues nothing.
 */
function hostedOutbox(tx: HostedTx): MailOutbox<Promise<boolean>, HostedMailToQueue> {
  return {
    async add(mail) {
      const { kind, requestId, signerId } = mail.ref;
      const row = { id: uuidv7(), entityId: mail.entityId, kind, requestId, signerId, dedupeKey: mail.purposeKey, status: 'queued' as const, nextAttemptAt: mail.queuedAt, createdAt: mail.queuedAt };
      const inserted = await tx.insert(hostedMail).values(row).onConflictDoNothing().returning({ id: hostedMail.id });
      return inserted.length > 0;
    },
  };
}

/** Queues a mail once per purpose; `nth` tells the reminders of one signer apart. Returns whether it was new. */
export async function queueHostedMail(h: HostedContext, tx: HostedTx, mail: { entityId: string; kind: MailKind; requestId: string; signerId: string; nth?: number }): Promise<boolean> {
  const ref = signingMailRef(mail.kind, mail.requestId, mail.signerId);
  return enqueueMail(hostedOutbox(tx), { entityId: mail.entityId, ref, purposeKey: signingPurposeKey(ref, mail.nth) }, serverTime(h));
}

/**
 * Called inside every push with the changes just accepted: a request that a device completed
 * after signing on the public pages gets everyone's signed copy queued, in the same transaction.
 */
export async function reactToChanges(h: HostedContext, tx: HostedTx, entityId: string, accepted: Change[]): Promise<void> {
  let queued = false;
  for (const c of accepted) {
    if (c.table !== 'signature_requests' || c.columns.status !== 'completed') continue;
    const r = await mirroredRow(tx, entityId, 'signature_requests', c.rowId);
    if (!r || r.status !== 'completed' || !isTrue(r.public_signing)) continue;
    for (const s of await mirroredRowsOfRequest(tx, entityId, 'signers', c.rowId)) await queueHostedMail(h, tx, { entityId, kind: 'signed_copy', requestId: c.rowId, signerId: String(s.id) });
    queued = true;
  }
  // Sent just after this commit, not at the next tick (a wake that comes too early finds nothing and the tick sends it).
  if (queued) h.mail?.wake();
}

const isTrue = (v: unknown) => v === 1 || v === true;

export interface HostedMailer {
  /** An SMTP URL is set: this instance can send mail (and so confirm e-mail addresses). */
  readonly configured: boolean;
  /**
   * Sends one message now, through the same transport, without the queue: for account mail whose
   * code exists only in this message (a queued row would keep it at rest). Rejects when it fails.
   */
  sendNow(message: Message): Promise<void>;
  /** Sends what is due now rather than at the next tick (after a queueing commit). */
  wake(): void;
  /** One pass over what is due (tests drive it by hand). */
  sendDue(): Promise<{ sent: number; failed: number }>;
  /** Queues the automatic reminders that are due (tests drive it by hand); how many. */
  remindDue(): Promise<number>;
  close(): void;
}

/** The sending loop. Without an SMTP URL, nothing is sent and mail stays queued (the status says so). */
export function startHostedMailer(h: HostedContext, opts: { smtpUrl?: string; from: string; publicUrl?: string; intervalMs?: number }): HostedMailer {
  let transport: Transporter | null = null;
  let running: Promise<{ sent: number; failed: number }> | null = null;
  const transportOf = async () => {
    if (!opts.smtpUrl) return null;
    const { default: nodemailer } = await import('nodemailer');
    transport ??= nodemailer.createTransport(opts.smtpUrl);
    return transport;
  };
  // One pass at a time; a pass asked for while one runs follows it, so it sees what was queued before it was asked for.
  const sendDue = async (): Promise<{ sent: number; failed: number }> => {
    while (running) await running.catch(() => undefined);
    running = sendDueBoth(h, { transport: transportOf, from: opts.from, publicUrl: opts.publicUrl }).finally(() => (running = null));
    return running;
  };
  // The timer's passes do not queue up behind a slow one (an SMTP server that hangs): the next tick comes.
  const tick = () => void (running ? undefined : sendDue().catch((err: unknown) => h.log.warn({ err }, 'hosted mail')));
  const timer = setInterval(tick, opts.intervalMs ?? 5_000);
  timer.unref();
  const remindDue = async () => {
    const queued = await queueDueReminders(h);
    if (queued > 0) tick();
    return queued;
  };
  const reminders = setInterval(() => void remindDue().catch((err: unknown) => h.log.warn({ err }, 'hosted reminders')), 15 * 60_000);
  reminders.unref();
  return {
    configured: Boolean(opts.smtpUrl),
    async sendNow(message) {
      const t = await transportOf();
      if (!t) throw new Error('This hosted instance has no SMTP server (--smtp-url)');
      await t.sendMail({ from: opts.from, ...message });
    },
    wake: () => setImmediate(tick),
    sendDue,
    remindDue,
    close: () => {
      clearInterval(timer);
      clearInterval(reminders);
      transport?.close();
    },
  };
}

/** This instance's own mail, then what devices handed over (`relayed-mail.ts`). */
async function sendDueBoth(h: HostedContext, opts: { transport: () => Promise<Transporter | null>; from: string; publicUrl?: string }): Promise<{ sent: number; failed: number }> {
  const own = await sendDueMail(h, opts);
  const transport = await opts.transport();
  if (!transport) return own;
  const relayed = await sendDueRelayedMail(h, transport, opts.from);
  return { sent: own.sent + relayed.sent, failed: own.failed + relayed.failed };
}

/** One pass over this instance's own mail that is due (the queue mechanism: mail/queue.ts; its store: mail-queue.ts). */
async function sendDueMail(h: HostedContext, opts: { transport: () => Promise<Transporter | null>; from: string; publicUrl?: string }): Promise<{ sent: number; failed: number }> {
  const transport = await opts.transport();
  if (!transport) return { sent: 0, failed: 0 };
  const deliver = async (m: MailRow): Promise<Delivery<SentInfo>> => {
    const message = m.kind === 'signed_copy' ? await signedCopyMessage(h, m) : await linkMessage(h, m, opts.publicUrl);
    if (!message) return { status: 'dropped', reason: 'Not needed any more: the request or signer moved on' };
    const info = await transport.sendMail({ from: opts.from, messageId: `<${m.id}@bureau.hosted>`, ...message, headers: { 'X-Bureau-Mail-Id': m.id } });
    return { status: 'sent', sent: { messageId: info.messageId ?? null } };
  };
  const { sent, failed } = await sendDueFrom(hostedMailQueue(h), deliver, HOSTED_MAIL_POLICY, h.clock);
  return { sent, failed };
}

type MailRow = typeof hostedMail.$inferSelect;
export type Message = { to: string; subject: string; text: string; html: string; attachments?: { filename: string; content: Buffer; contentType: string }[] };

/**
 * The next signer's invitation, or an automatic reminder. Their link is made now: a new token
 * whose hash replaces the signer's (as a device sending a link it does not hold does), so no
 * token is ever stored here. A reminder is recorded in the audit trail, as a device records it.
 */
async function linkMessage(h: HostedContext, m: MailRow, publicUrl: string | undefined): Promise<Message | null> {
  if (!publicUrl) throw new Error('This hosted instance has no public URL (--public-url) to put in signing links');
  const token = crypto.randomBytes(32).toString('base64url');
  return recordHostedChanges(h, m.entityId, async (tx) => {
    const l = await loadRequest(tx, m.entityId, m.requestId, m.signerId);
    if (!l || l.r.status !== 'sent' || l.s.status !== 'pending' || !signersWhoseTurn(l.r, l.all).some((o) => o.id === l.s.id)) return { changes: [], result: null };
    const now = serverTime(h);
    const reminder = m.kind === 'signing_reminder';
    const sender = l.r.createdByName ?? (await entityName(tx, m.entityId));
    const content = signingMailContent(l.r, l.s, sender, reminder ? 'reminder' : 'invite', signingUrl(publicUrl, token));
    // The signer's row and the audit entry as a device's invitation or automatic reminder writes them (the signing core).
    const { store, changes } = hostedMailingStore(h, l, now);
    store.updateSignerOf(l.s.id, { tokenHash: sha256Hex(token) });
    if (reminder) remindSigners(store, [l.s], { now, actor: SYSTEM_ACTOR, automatic: true });
    else inviteSigners(store, [l.s], now);
    return { changes: changes(), result: { to: l.s.email, ...content } };
  });
}

async function entityName(tx: HostedTx, entityId: string): Promise<string> {
  const [e] = await tx.select({ name: entities.name }).from(entities).where(eq(entities.id, entityId));
  return e?.name ?? 'Bureau';
}

/** Requests looked at per pass (the next pass, 15 minutes on, takes the rest). */
const REMINDER_SCAN_LIMIT = 500;

/**
 * The automatic reminders of requests signed on the public pages, on the devices' schedule
 * (the signing core's `reminderDue`: the first after 2 days, then every 3, at most 3), so signers are reminded while
 * every device is offline. Devices leave these requests' automatic reminders to this instance.
 */
async function queueDueReminders(h: HostedContext): Promise<number> {
  const now = h.clock.now().getTime();
  const open = await h.store.db
    .select({ entityId: rows.entityId, rowId: rows.rowId, data: rows.data })
    .from(rows)
    .where(
      and(
        sql`${rows.tableName} = 'signature_requests'`,
        sql`${rows.data} ->> 'status' = 'sent'`,
        // Compared as text, never cast: a cast that fails on one tenant's row would fail the scan for all.
        sql`${rows.data} ->> 'public_signing' in ('1', 'true')`,
        sql`${rows.data} ->> 'auto_remind' in ('1', 'true')`,
        notDeleted,
      ),
    )
    .orderBy(asc(rows.seq))
    .limit(REMINDER_SCAN_LIMIT);
  let queued = 0;
  for (const r of open) {
    try {
      await h.store.db.transaction(async (tx) => {
        const all = (await mirroredRowsOfRequest(tx, r.entityId, 'signers', r.rowId)).map((d) => asRow<SignerRow>('signers', d));
        for (const s of signersWhoseTurn(asRow<RequestRow>('signature_requests', r.data), all)) {
          if (!reminderDue(s, now)) continue;
          if (await queueHostedMail(h, tx, { entityId: r.entityId, kind: 'signing_reminder', requestId: r.rowId, signerId: s.id, nth: s.remindersSent + 1 })) queued++;
        }
      });
    } catch (err) {
      // One tenant's damaged request is skipped (and logged once); every other request is still reminded.
      if (!(err instanceof UnreadableRowError)) throw err;
      reportUnreadableRow(h, r.entityId, r.rowId, err);
    }
  }
  return queued;
}

/** Everyone's signed copy, the sealed PDF attached. */
async function signedCopyMessage(h: HostedContext, m: MailRow): Promise<Message | null> {
  const found = await h.store.db.transaction(async (tx) => {
    const r = await mirroredRow(tx, m.entityId, 'signature_requests', m.requestId);
    const s = await mirroredRow(tx, m.entityId, 'signers', m.signerId);
    if (!r || !s || r.status !== 'completed' || typeof r.signed_sha256 !== 'string') return null;
    const doc = await mirroredRow(tx, m.entityId, 'documents', String(r.document_id));
    return { r, s, sha256: r.signed_sha256, name: signedName(String(doc?.name ?? 'document.pdf')) };
  });
  if (!found) return null;
  // Read outside the transaction: PGlite has one connection, and a transaction holds it.
  const pdf = await readBlob(h, m.entityId, found.sha256);
  // The device uploads a blob before the row that names it; missing means it is still on its way.
  if (!pdf) throw new Error('The signed PDF has not arrived yet');
  const content = signedCopyMailContent({ title: String(found.r.title) }, { name: String(found.s.name) });
  return { to: String(found.s.email), ...content, attachments: [{ filename: found.name, content: pdf, contentType: 'application/pdf' }] };
}
