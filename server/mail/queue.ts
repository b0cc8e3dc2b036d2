// One mail queue mechanism for the desktop and the hosted instance: a mail is queued in the
// transaction of the change that causes it (once per purpose), and a pass sends what is due —
// claimed first, dropped when its reason is gone, retried with backoff up to a limit, its failure
// recorded. Storage is behind `MailQueueStore`: the desktop's `mail_outbox` (mail.ts), the hosted
// instance's own `hosted_mail` and the `relayed_mail` devices hand over (hosted/signing-mail.ts,
// hosted/relayed-mail.ts). Each side keeps its tables; the rules of the queue are written once here.

/** What the queue needs of a queued mail. */
export interface QueuedMail {
  id: string;
  attempts: number;
}

/** What became of one delivery attempt. `waiting`: not tried yet (something it needs is not there); look again at `retryAt`. */
export type Delivery<Sent = unknown> = { status: 'sent'; sent: Sent } | { status: 'dropped'; reason: string } | { status: 'waiting'; retryAt: string };

/** A failed attempt, as the store records it. `giveUp`: the mail failed for good (no more attempts). */
export interface MailFailure {
  attempts: number;
  lastError: string;
  giveUp: boolean;
  nextAttemptAt: string;
  err: unknown;
}

export interface MailQueueStore<M extends QueuedMail, Sent = unknown> {
  /** The queued mail due now, oldest first, at most `limit`. */
  due(limit: number): Promise<M[]>;
  /** Takes `m` for this pass (several hosted processes may share one PostgreSQL); false: another took it first. */
  claim(m: M): Promise<boolean>;
  sent(m: M, sent: Sent): Promise<void>;
  dropped(m: M, reason: string): Promise<void>;
  failed(m: M, failure: MailFailure): Promise<void>;
  /** Not tried in this pass; due again at `retryAt`. */
  waiting?(m: M, retryAt: string): Promise<void>;
}

export interface RetryPolicy {
  /** Attempts before a mail is given up as failed. */
  maxAttempts: number;
  /** The wait before attempt `attempts + 1`. */
  backoffMs(attempts: number): number;
  /** A refusal no retry can change (bad input, too large): the mail fails at once. */
  permanent?(err: unknown): boolean;
  /** A wait the other side asked for (Retry-After), in ms; the longer of it and the backoff is taken. */
  retryAfterMs?(err: unknown): number;
  /** How many mails one pass looks at. */
  batch: number;
}

/** Attempts before a mail is given up, on every queue. */
export const MAX_MAIL_ATTEMPTS = 8;
export const MAIL_BATCH = 20;

/**
 * Exponential backoff: `baseMs`, then doubled per attempt, at most `capMs`; with `jitter` (±20 %)
 * so that mails that failed together do not retry together. (Local to mail until the one backoff
 * helper of issue 27 lands.)
 */
export function mailBackoffMs(attempts: number, opts: { baseMs: number; capMs: number; jitter?: boolean }): number {
  const ms = Math.min(opts.capMs, opts.baseMs * 2 ** (attempts - 1));
  return opts.jitter ? ms * (0.8 + Math.random() * 0.4) : ms;
}

const at = (nowMs: number, waitMs: number) => new Date(nowMs + waitMs).toISOString();

/** The failure of attempt `m.attempts + 1`: when to try again, or that it is given up. */
export function failureOf(m: QueuedMail, err: unknown, policy: RetryPolicy, nowMs: number): MailFailure {
  const attempts = m.attempts + 1;
  const lastError = err instanceof Error ? err.message.slice(0, 300) : 'Send failed';
  const giveUp = attempts >= policy.maxAttempts || (policy.permanent?.(err) ?? false);
  const wait = Math.max(policy.backoffMs(attempts), policy.retryAfterMs?.(err) ?? 0);
  return { attempts, lastError, giveUp, nextAttemptAt: at(nowMs, wait), err };
}

export interface PassCounts {
  sent: number;
  failed: number;
  dropped: number;
}

/**
 * One pass over what is due: each mail claimed, then delivered (`deliver` sends it, or says it is
 * to be dropped or to wait); a throw is a failed attempt, retried with backoff until the limit.
 */
export async function sendDueFrom<M extends QueuedMail, Sent>(
  store: MailQueueStore<M, Sent>,
  deliver: (m: M) => Promise<Delivery<Sent>>,
  policy: RetryPolicy,
  clock: { now(): Date },
): Promise<PassCounts> {
  const counts: PassCounts = { sent: 0, failed: 0, dropped: 0 };
  for (const m of await store.due(policy.batch)) {
    if (!(await store.claim(m))) continue;
    let outcome: Delivery<Sent>;
    try {
      outcome = await deliver(m);
    } catch (err) {
      await store.failed(m, failureOf(m, err, policy, clock.now().getTime()));
      counts.failed++;
      continue;
    }
    if (outcome.status === 'sent') {
      await store.sent(m, outcome.sent);
      counts.sent++;
    } else if (outcome.status === 'dropped') {
      await store.dropped(m, outcome.reason);
      counts.dropped++;
    } else {
      await store.waiting?.(m, outcome.retryAt);
    }
  }
  return counts;
}

/** The purpose key of a mail: one mail per purpose (e.g. `signed_copy:<request>:<signer>`), whichever writer queues it. */
export function purposeKeyOf(kind: string, ...parts: (string | number | null | undefined)[]): string {
  return [kind, ...parts.filter((p) => p !== null && p !== undefined && p !== '' && p !== 0)].join(':');
}
