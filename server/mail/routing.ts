// Where a queued mail goes, decided when it is sent. The mail module does not know sync or
// documents (they sit to its right, and documents queues mail): sync registers the hosted relay,
// documents registers the checks that tell a mail's reason is gone.
import type { Context } from '../context.js';
import type { Queryable } from '../db/tx.js';
import type { MailHeaders } from './tables.js';

/** A queued mail as the hosted instance takes it. */
export interface RelayedMail {
  id: string;
  entityId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  ref: Record<string, string>;
  headers: MailHeaders | null;
  purposeKey: string | null;
}

/** The hosted instance's answer: `queued`/`sent` it took the mail; `dropped` it will not send it (why in `reason`). */
export interface RelayAnswer {
  status: 'queued' | 'sent' | 'failed' | 'dropped';
  reason: string | null;
}

export interface HostedMailRelay {
  /** The entity is linked to a hosted instance, so its mail can go out there. */
  linked(ctx: Context, entityId: string): boolean;
  /**
   * The entity's changes made so far have reached the hosted instance: it checks a recipient
   * against the rows it holds, so a signer queued in the same transaction must be there first.
   */
  caughtUp(ctx: Context, entityId: string): boolean;
  /** Hands one mail over; idempotent by its id. Throws the hosted instance's refusal. */
  send(ctx: Context, mail: RelayedMail): Promise<RelayAnswer>;
}

/** Why a mail is no longer to be sent (its request completed or was cancelled), or null while it is. */
export type MailReasonCheck = (db: Queryable, entityId: string, ref: Record<string, string>) => string | null;

const relays = new WeakMap<Context, HostedMailRelay>();
const checks = new WeakMap<Context, MailReasonCheck[]>();

export function registerHostedMailRelay(ctx: Context, relay: HostedMailRelay): void {
  relays.set(ctx, relay);
}

export function hostedMailRelay(ctx: Context): HostedMailRelay | null {
  return relays.get(ctx) ?? null;
}

export function registerMailReasonCheck(ctx: Context, check: MailReasonCheck): void {
  checks.set(ctx, [...(checks.get(ctx) ?? []), check]);
}

export function reasonGone(ctx: Context, db: Queryable, entityId: string, ref: Record<string, string>): string | null {
  for (const check of checks.get(ctx) ?? []) {
    const reason = check(db, entityId, ref);
    if (reason) return reason;
  }
  return null;
}

/**
 * The route of one mail. Decision (issue 26): while the entity is linked, every mail goes out
 * through the hosted instance — it is always on, it sends each purpose once whichever device
 * queued it (one "Completed" per person), and it drops mail whose request moved on — except a
 * helpdesk reply (it carries its mailbox's From) when this install has its own SMTP: that keeps
 * the mailbox's own sender address. Unlinked, the install's SMTP or nothing (the mail waits).
 */
export function routeOf(ctx: Context, entityId: string, headers: MailHeaders | null, hasSmtp: boolean): 'smtp' | 'hosted' | null {
  const relay = hostedMailRelay(ctx);
  const linked = relay?.linked(ctx, entityId) ?? false;
  if (linked && (!hasSmtp || !headers?.from)) return 'hosted';
  return hasSmtp ? 'smtp' : null;
}
