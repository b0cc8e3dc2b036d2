// Mail a linked device hands over to send (`POST /sync/v1/mail`), and the pass that sends it.
// A public service that sends what tenants give it must not become a spam relay: it sends only
// to addresses the entity knows from its own rows (a member's account, a signer of one of its
// requests, a ticket's contact), within a per-entity quota, one recipient per message, and keeps
// the body only until the mail is sent, dropped or given up.
import { and, count, eq, gte, min, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import { v7 as uuidv7 } from 'uuid';
import { ForbiddenError, RateLimitedError, ServiceUnavailableError } from '../http/errors.js';
import type { RateLimitRule } from '../http/rate-limit.js';
import type { relayMailBody } from '../sync/protocol.js';
import type { z } from 'zod';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import type { DeviceAuth } from './devices.js';
import { mirroredRow, notDeleted } from './mirror.js';
import { accounts, members, relayedMail, rows } from './schema.js';
import type { HostedTx } from './store.js';
import { sendDueFrom, type Delivery } from '../mail/index.js';
import { HOSTED_MAIL_POLICY, relayedMailQueue, type RelayedMailRow, type SentInfo } from './mail-queue.js';

type Body = z.output<typeof relayMailBody>;
type Row = typeof relayedMail.$inferSelect;
export type RelayMailAnswer = { id: string; status: Row['status']; reason: string | null };

export { MAX_MAIL_ATTEMPTS as MAX_RELAYED_MAIL_ATTEMPTS } from '../mail/index.js';

/** Whether `to` is an address the entity knows: a member, a signer of one of its requests, a ticket's contact. */
async function knownRecipient(tx: HostedTx, entityId: string, to: string): Promise<boolean> {
  const [member] = await tx
    .select({ n: count() })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(and(eq(members.entityId, entityId), sql`lower(${accounts.email}) = ${to}`));
  if (Number(member.n) > 0) return true;
  const [row] = await tx
    .select({ n: count() })
    .from(rows)
    .where(
      and(
        eq(rows.entityId, entityId),
        sql`((${rows.tableName} = 'signers' and lower(${rows.data} ->> 'email') = ${to}) or (${rows.tableName} = 'tickets' and lower(${rows.data} ->> 'contact_email') = ${to}))`,
        notDeleted,
      ),
    );
  return Number(row.n) > 0;
}

const ASKS_TO_ACT = new Set(['signing_invite', 'signing_reminder']);

/** Why a signing invitation or reminder is no longer to be sent (its request or signer moved on), or null. */
async function reasonGone(tx: HostedTx, entityId: string, ref: Record<string, string>): Promise<string | null> {
  if (!ASKS_TO_ACT.has(ref.kind) || !ref.requestId) return null;
  const r = await mirroredRow(tx, entityId, 'signature_requests', ref.requestId);
  if (!r) return null; // not here (yet): the device checked it when it handed the mail over
  if (r.status !== 'sent') return `The request was ${String(r.status)} meanwhile`;
  const s = ref.signerId ? await mirroredRow(tx, entityId, 'signers', ref.signerId) : null;
  if (s && s.status !== 'pending') return `The signer has ${String(s.status)} meanwhile`;
  return null;
}

const answerOf = (r: Pick<Row, 'mailId' | 'status' | 'reason'>): RelayMailAnswer => ({ id: r.mailId, status: r.status, reason: r.reason });

/**
 * Takes one mail to send. The same device mail id again answers what became of it (a retry
 * after a lost answer never sends twice); `duplicate` tells the route to answer 200.
 */
export async function acceptRelayedMail(h: HostedContext, device: DeviceAuth, body: Body, quota: RateLimitRule): Promise<RelayMailAnswer & { duplicate: boolean }> {
  const canSend = h.mail?.configured ?? false;
  const answer = await h.store.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(relayedMail).where(and(eq(relayedMail.entityId, device.entityId), eq(relayedMail.mailId, body.id)));
    if (existing) return { ...answerOf(existing), duplicate: true };
    if (body.purposeKey) {
      const [same] = await tx.select({ id: relayedMail.id }).from(relayedMail).where(and(eq(relayedMail.entityId, device.entityId), eq(relayedMail.purposeKey, body.purposeKey)));
      if (same) return { id: body.id, status: 'dropped' as const, reason: 'The same mail (same purpose and recipient) was already sent for this business, from another device', duplicate: true };
    }
    const since = new Date(h.clock.now().getTime() - quota.windowMs).toISOString();
    // Counted in the database, not in memory: every hosted process on one PostgreSQL sees the same quota.
    const [used] = await tx.select({ n: count(), oldest: min(relayedMail.createdAt) }).from(relayedMail).where(and(eq(relayedMail.entityId, device.entityId), gte(relayedMail.createdAt, since)));
    if (Number(used.n) >= quota.limit) throw new RateLimitedError(Math.max(1, (new Date(used.oldest ?? since).getTime() + quota.windowMs - h.clock.now().getTime()) / 1000), quota.message);
    if (!(await knownRecipient(tx, device.entityId, body.to))) {
      throw new ForbiddenError(`This instance sends only to addresses the business knows (a member, a signer of one of its requests, a ticket's contact); ${body.to} is none of them`);
    }
    // Checked after the recipient, so the answer to an unknown address is the same with or without SMTP.
    if (!canSend) throw new ServiceUnavailableError('This hosted instance has no SMTP server (--smtp-url); the mail stays on the device');
    const gone = await reasonGone(tx, device.entityId, body.ref);
    const now = serverTime(h);
    const row = {
      id: uuidv7(),
      entityId: device.entityId,
      deviceId: device.deviceId,
      mailId: body.id,
      purposeKey: body.purposeKey ?? null,
      to: body.to,
      subject: body.subject,
      body: gone ? null : { text: body.text, html: body.html, headers: body.headers ?? null },
      ref: body.ref,
      status: gone ? ('dropped' as const) : ('queued' as const),
      reason: gone,
      nextAttemptAt: now,
      createdAt: now,
    };
    // A concurrent twin (the same retry twice at once) inserts nothing and answers what the first wrote.
    const inserted = await tx.insert(relayedMail).values(row).onConflictDoNothing().returning({ id: relayedMail.id });
    if (inserted.length === 0) {
      const [twin] = await tx.select().from(relayedMail).where(and(eq(relayedMail.entityId, device.entityId), eq(relayedMail.mailId, body.id)));
      return twin ? { ...answerOf(twin), duplicate: true } : { id: body.id, status: 'dropped' as const, reason: 'The same mail (same purpose and recipient) was already sent for this business, from another device', duplicate: true };
    }
    return { id: body.id, status: row.status, reason: row.reason, duplicate: false };
  });
  if (answer.status === 'queued' && !answer.duplicate) h.mail?.wake();
  return answer;
}

/** The address of a `Name <address>` sender. */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

const bracket = (id: string) => `<${id}>`;

/** One pass over the relayed mail that is due (the queue mechanism: mail/queue.ts; its store: mail-queue.ts). */
export async function sendDueRelayedMail(h: HostedContext, transport: Transporter, from: string): Promise<{ sent: number; failed: number }> {
  const deliver = async (m: RelayedMailRow): Promise<Delivery<SentInfo>> => {
    const gone = await h.store.db.transaction((tx) => reasonGone(tx, m.entityId, m.ref));
    if (gone) return { status: 'dropped', reason: gone };
    const body = m.body!;
    const hd = body.headers;
    const info = (await transport.sendMail({
      // The instance's own address (its SPF and DKIM); a helpdesk mailbox's name, and replies to its address.
      from: hd?.fromName ? { name: hd.fromName, address: addressOf(from) } : from,
      ...(hd?.replyTo ? { replyTo: hd.replyTo } : {}),
      to: m.to,
      subject: m.subject,
      text: body.text,
      html: body.html,
      messageId: bracket(hd?.messageId ?? `${m.mailId}@bureau.hosted`),
      ...(hd?.inReplyTo ? { inReplyTo: bracket(hd.inReplyTo) } : {}),
      ...(hd?.references?.length ? { references: hd.references.map(bracket) } : {}),
      headers: { 'X-Bureau-Mail-Id': m.mailId },
    })) as { messageId?: string };
    return { status: 'sent', sent: { messageId: info.messageId ?? null } };
  };
  const { sent, failed } = await sendDueFrom(relayedMailQueue(h), deliver, HOSTED_MAIL_POLICY, h.clock);
  return { sent, failed };
}
