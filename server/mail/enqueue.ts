// One way to queue a mail, on the desktop and on the hosted instance: what the mail is about
// (`ref`, its `kind` and the rows it names), whether it goes once per purpose (`purposeKey`),
// and its message when it is written as it is queued. Storage is behind `MailOutbox`: the
// desktop's `mail_outbox` (mail.ts), in the SQLite transaction of the change that causes the mail,
// and the hosted instance's `hosted_mail` (hosted/signing-mail.ts), in its PostgreSQL one. So a
// signing invitation or reminder is queued the same way wherever it happens.
import type { MailHeaders } from './tables.js';
import { purposeKeyOf } from './queue.js';

/** What a mail is about, e.g. `{ kind: 'signing_invite', requestId, signerId }` (the checks that drop a mail read it). */
export type MailRef = { kind: string } & Record<string, string>;

/** A message written as it is queued. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** From and threading headers (helpdesk replies); absent, the mail goes out from the sender's default address. */
  headers?: MailHeaders;
}

export interface MailToQueue {
  entityId: string;
  ref: MailRef;
  /**
   * One mail per purpose (`purposeKeyOf`, e.g. `completed:<request>:<address>`): a second mail
   * under the key is not queued (the hosted instance) or not sent (a device's, through the hosted
   * relay). Absent: every call queues a mail.
   */
  purposeKey?: string | null;
  /** The message; absent where the queue writes it when it sends (the hosted instance makes a signer's link only then). */
  message?: MailMessage;
}

/** A mail as an outbox keeps it: `Q` says what that side's mail must carry (a device's, its message). */
export type OutgoingMail<Q extends MailToQueue = MailToQueue> = Q & { purposeKey: string | null; queuedAt: string };

/** Where a side keeps its queue. `R`: what adding answers (the desktop: the mail's id; the hosted instance: whether it was new). */
export interface MailOutbox<R, Q extends MailToQueue = MailToQueue> {
  add(mail: OutgoingMail<Q>): R;
}

/** Queues `mail` in `outbox`, due at once (`now`); the sending pass (queue.ts `sendDueFrom`) takes it from there. */
export function enqueueMail<R, Q extends MailToQueue>(outbox: MailOutbox<R, Q>, mail: Q, now: string): R {
  return outbox.add({ ...mail, purposeKey: mail.purposeKey ?? null, queuedAt: now });
}

/** The kinds of a signing mail, the same on both sides (the hosted `hosted_mail.kind` takes the first three). */
export type SigningMailKind = 'signing_invite' | 'signing_reminder' | 'signed_copy' | 'signing_completed' | 'signing_cancelled';

/** The ref of a mail to a signer of a request. */
export function signingMailRef<K extends SigningMailKind>(kind: K, requestId: string, signerId: string): { kind: K; requestId: string; signerId: string } {
  return { kind, requestId, signerId };
}

/** The purpose key of a signer's mail: once per signer, and per reminder (`nth`). */
export function signingPurposeKey(ref: { kind: string; requestId: string; signerId: string }, nth?: number): string {
  return purposeKeyOf(ref.kind, ref.requestId, ref.signerId, nth);
}
