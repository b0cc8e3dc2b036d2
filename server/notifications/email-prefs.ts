// Per person and kind of notification: whether she also gets an e-mail. Her choice is a synced
// row (hers on all her devices); a kind she never chose uses its default.
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { BadRequestError } from '../http/errors.js';
import { notificationEmailPrefs } from './tables.js';

/** The kinds Bureau raises itself, with what a person sees and whether e-mail is on until she chooses. */
export const NOTIFICATION_KINDS = [
  { kind: 'ticket.assigned', label: 'A ticket was assigned to me', emailByDefault: true },
  { kind: 'ticket.customer_reply', label: 'A customer replied on my ticket', emailByDefault: true },
  { kind: 'signature_request.completed', label: 'A signature request I sent was signed by everyone', emailByDefault: true },
  { kind: 'signature_request.declined', label: 'A signature request I sent was declined', emailByDefault: true },
  { kind: 'signature_request.expired', label: 'A signature request I sent expired', emailByDefault: true },
  { kind: 'webhook.disabled', label: 'A webhook endpoint was disabled (owners and admins)', emailByDefault: true },
  { kind: 'sync.changes_undone', label: 'A change made on a device was undone by sync (owners and admins)', emailByDefault: false },
  { kind: 'transfer.received', label: 'Funds arrived in the wallet', emailByDefault: false },
] as const;

const byKind = new Map<string, (typeof NOTIFICATION_KINDS)[number]>(NOTIFICATION_KINDS.map((k) => [k.kind, k]));

export interface EmailPreference {
  kind: string;
  label: string;
  email: boolean;
  emailByDefault: boolean;
}

/** Whether this person wants an e-mail for this kind (kinds outside the list — notifications made through the API — never mail). */
export function wantsEmail(tx: Tx, entityId: string, userId: string, kind: string): boolean {
  const known = byKind.get(kind);
  if (!known) return false;
  const row = tx
    .select({ email: notificationEmailPrefs.email })
    .from(notificationEmailPrefs)
    .where(and(eq(notificationEmailPrefs.entityId, entityId), eq(notificationEmailPrefs.userId, userId), eq(notificationEmailPrefs.kind, kind)))
    .get();
  return row ? row.email : known.emailByDefault;
}

export function listEmailPreferences(ctx: Context, entityId: string, userId: string): EmailPreference[] {
  const chosen = new Map(
    ctx.db
      .select({ kind: notificationEmailPrefs.kind, email: notificationEmailPrefs.email })
      .from(notificationEmailPrefs)
      .where(and(eq(notificationEmailPrefs.entityId, entityId), eq(notificationEmailPrefs.userId, userId)))
      .all()
      .map((r) => [r.kind, r.email]),
  );
  return NOTIFICATION_KINDS.map((k) => ({ kind: k.kind, label: k.label, email: chosen.get(k.kind) ?? k.emailByDefault, emailByDefault: k.emailByDefault }));
}

/** Sets the given kinds (others stay as they are), all or none; returns every preference. */
export function setEmailPreferences(ctx: Context, entityId: string, userId: string, choices: Record<string, boolean>): EmailPreference[] {
  const unknown = Object.keys(choices).filter((k) => !byKind.has(k));
  if (unknown.length) throw new BadRequestError(`preferences: unknown kind ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const updatedAt = nowIso(ctx);
  write(ctx, (tx) => {
    for (const [kind, email] of Object.entries(choices)) {
      tx.insert(notificationEmailPrefs)
        .values({ entityId, userId, kind, email, updatedAt })
        .onConflictDoUpdate({ target: [notificationEmailPrefs.entityId, notificationEmailPrefs.userId, notificationEmailPrefs.kind], set: { email, updatedAt } })
        .run();
    }
  });
  return listEmailPreferences(ctx, entityId, userId);
}
