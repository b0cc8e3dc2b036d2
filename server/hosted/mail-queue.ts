// The mail queue's stores on the hosted instance (mail/queue.ts holds the mechanism): its own
// mail (`hosted_mail`: invitations, reminders, signed copies) and the mail devices hand over
// (`relayed_mail`). Several hosted processes may share one PostgreSQL: a mail is claimed (its
// attempt counted, a five-minute lease) before it is sent, so only one of them sends it.
import { and, asc, eq, lte } from 'drizzle-orm';
import { MAIL_BATCH, MAX_MAIL_ATTEMPTS, mailBackoffMs, type MailQueueStore, type RetryPolicy } from '../mail/index.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { hostedMail, relayedMail } from './schema.js';

/** 30 s, 1 min, 2 min … capped at 1 h, with jitter; 8 attempts. */
export const HOSTED_MAIL_POLICY: RetryPolicy = {
  maxAttempts: MAX_MAIL_ATTEMPTS,
  batch: MAIL_BATCH,
  backoffMs: (attempts) => mailBackoffMs(attempts, { baseMs: 30_000, capMs: 3_600_000, jitter: true }),
};

const LEASE_MS = 5 * 60_000;

export type HostedMailRow = typeof hostedMail.$inferSelect;
export type RelayedMailRow = typeof relayedMail.$inferSelect;
export type SentInfo = { messageId: string | null };

const leaseEnd = (h: HostedContext) => new Date(h.clock.now().getTime() + LEASE_MS).toISOString();

/** `hosted_mail`: what this instance queued itself. A dropped mail keeps why in `last_error`. */
export function hostedMailQueue(h: HostedContext): MailQueueStore<HostedMailRow, SentInfo> {
  const db = h.store.db;
  return {
    due: (limit) => db.select().from(hostedMail).where(and(eq(hostedMail.status, 'queued'), lte(hostedMail.nextAttemptAt, serverTime(h)))).orderBy(asc(hostedMail.nextAttemptAt), asc(hostedMail.id)).limit(limit),
    async claim(m) {
      const claimed = await db
        .update(hostedMail)
        .set({ attempts: m.attempts + 1, nextAttemptAt: leaseEnd(h) })
        .where(and(eq(hostedMail.id, m.id), eq(hostedMail.attempts, m.attempts), eq(hostedMail.status, 'queued')))
        .returning({ id: hostedMail.id });
      return claimed.length > 0;
    },
    sent: async (m, info) => void (await db.update(hostedMail).set({ status: 'sent', sentAt: serverTime(h), messageId: info.messageId, lastError: null }).where(eq(hostedMail.id, m.id))),
    dropped: async (m, reason) => void (await db.update(hostedMail).set({ status: 'dropped', lastError: reason }).where(eq(hostedMail.id, m.id))),
    async failed(m, f) {
      await db.update(hostedMail).set({ status: f.giveUp ? 'failed' : 'queued', lastError: f.lastError, nextAttemptAt: f.nextAttemptAt }).where(eq(hostedMail.id, m.id));
      h.log.warn({ mailId: m.id, attempts: f.attempts, giveUp: f.giveUp }, 'hosted mail delivery failed');
    },
  };
}

/** `relayed_mail`: what devices handed over. Its body is kept only until the mail is sent, dropped or given up. */
export function relayedMailQueue(h: HostedContext): MailQueueStore<RelayedMailRow, SentInfo> {
  const db = h.store.db;
  return {
    due: (limit) => db.select().from(relayedMail).where(and(eq(relayedMail.status, 'queued'), lte(relayedMail.nextAttemptAt, serverTime(h)))).orderBy(asc(relayedMail.nextAttemptAt), asc(relayedMail.id)).limit(limit),
    async claim(m) {
      const claimed = await db
        .update(relayedMail)
        .set({ attempts: m.attempts + 1, nextAttemptAt: leaseEnd(h) })
        .where(and(eq(relayedMail.id, m.id), eq(relayedMail.attempts, m.attempts), eq(relayedMail.status, 'queued')))
        .returning({ id: relayedMail.id });
      return claimed.length > 0 && m.body !== null;
    },
    sent: async (m, info) => void (await db.update(relayedMail).set({ status: 'sent', sentAt: serverTime(h), messageId: info.messageId, lastError: null, body: null }).where(eq(relayedMail.id, m.id))),
    dropped: async (m, reason) => void (await db.update(relayedMail).set({ status: 'dropped', reason, body: null }).where(eq(relayedMail.id, m.id))),
    async failed(m, f) {
      await db
        .update(relayedMail)
        .set({ status: f.giveUp ? 'failed' : 'queued', lastError: f.lastError, ...(f.giveUp ? { reason: f.lastError, body: null } : {}), nextAttemptAt: f.nextAttemptAt })
        .where(eq(relayedMail.id, m.id));
      h.log.warn({ mailId: m.id, attempts: f.attempts, giveUp: f.giveUp }, 'relayed mail delivery failed');
    },
  };
}
