import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import type { Accessor } from '../folders/index.js';
import { appendAudit, SYSTEM_ACTOR } from './audit.js';
import { mailRouteOf } from '../mail/index.js';
import { queueSigningMail } from './notify.js';
import { signerTokenHere } from './signers.js';
import { assertStatus, getVisibleRequest, signersOf, signersWhoseTurn, type RequestMeta, type RequestRow, type SignerRow } from './requests.js';
import { AUTO_REMIND } from './request-schemas.js';
import { signatureRequests, signers } from './tables.js';

const DAY = 86_400_000;

function remind(ctx: Context, tx: Tx, r: RequestRow, targets: SignerRow[], automatic: boolean, meta: RequestMeta) {
  const now = nowIso(ctx);
  for (const s of targets) {
    queueSigningMail(ctx, tx, r, s, s.sentAt ? 'reminder' : 'invite');
    tx.update(signers)
      .set({ lastNotifiedAt: now, sentAt: s.sentAt ?? now, remindersSent: automatic ? s.remindersSent + 1 : s.remindersSent })
      .where(eq(signers.id, s.id))
      .run();
  }
  appendAudit(ctx, tx, { entityId: r.entityId, requestId: r.id, type: 'reminded', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { automatic, signerIds: targets.map((s) => s.id) } });
}

/** E-mails every signer whose turn it is and who has not acted yet (sent requests only). */
export function remindSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['sent'], 'send reminders');
  const targets = signersWhoseTurn(r, signersOf(ctx.db, entityId, requestId));
  write(ctx, (tx) => remind(ctx, tx, r, targets, false, meta));
  return { reminded: targets.map((s) => ({ signerId: s.id, name: s.name, email: s.email })), mailConfigured: mailRouteOf(ctx, entityId) !== null };
}

/**
 * The automatic schedule: a signer who has not acted is reminded AUTO_REMIND.firstAfterDays
 * after the invitation, then every AUTO_REMIND.everyDays, at most AUTO_REMIND.max times.
 */
export function runAutoReminders(ctx: Context): number {
  const now = ctx.clock.now().getTime();
  let count = 0;
  const open = ctx.db
    .select()
    .from(signatureRequests)
    // Requests signed on the hosted pages are reminded from there, also while every device is offline.
    .where(and(eq(signatureRequests.status, 'sent'), eq(signatureRequests.autoRemind, true), eq(signatureRequests.publicSigning, false)))
    .all();
  for (const r of open) {
    const due = signersWhoseTurn(r, signersOf(ctx.db, r.entityId, r.id)).filter((s) => {
      // The device that sent the signer's link reminds them; the entity's other devices do not remind twice.
      if (!signerTokenHere(ctx, s)) return false;
      if (!s.lastNotifiedAt || s.remindersSent >= AUTO_REMIND.max) return false;
      const wait = (s.remindersSent === 0 ? AUTO_REMIND.firstAfterDays : AUTO_REMIND.everyDays) * DAY;
      return new Date(s.lastNotifiedAt).getTime() + wait <= now;
    });
    if (due.length === 0) continue;
    write(ctx, (tx) => remind(ctx, tx, r, due, true, { actor: SYSTEM_ACTOR }));
    count += due.length;
  }
  return count;
}
