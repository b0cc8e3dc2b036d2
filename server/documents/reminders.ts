// Reminders on the desktop: the sender's (POST …/remind) and the automatic schedule's. Who is
// reminded, the signers' rows, the mail and the audit entry are the signing core's
// (signing-core/sender-use-cases.ts `remindRequest`, `remindSigners`, rules.ts `reminderDue`),
// the same as the hosted instance's automatic reminders (hosted/signing-mail.ts).
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Accessor } from '../folders/index.js';
import { SYSTEM_ACTOR } from './audit.js';
import { mailRouteOf } from '../mail/index.js';
import { signerTokenHere } from './signers.js';
import { findRequest, getVisibleRequest, signersOf } from './requests.js';
import type { RequestMeta } from './requests.js';
import { remindRequest, remindSigners, reminderDue, signersWhoseTurn } from './signing-core/index.js';
import { desktopSenderStore } from './signing-store.js';
import { signatureRequests } from './tables.js';

/** E-mails every signer whose turn it is and who has not acted yet (sent requests only). */
export function remindSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  getVisibleRequest(ctx, entityId, accessor, requestId);
  const now = nowIso(ctx);
  const targets = write(ctx, (tx) => remindRequest(desktopSenderStore(ctx, tx, findRequest(tx, entityId, requestId)), { now, ...meta }));
  return { reminded: targets.map((s) => ({ signerId: s.id, name: s.name, email: s.email })), mailConfigured: mailRouteOf(ctx, entityId) !== null };
}

/** The automatic schedule (rules.ts `reminderDue`), for the requests this device reminds. */
export function runAutoReminders(ctx: Context): number {
  const nowMs = ctx.clock.now().getTime();
  let count = 0;
  const open = ctx.db
    .select()
    .from(signatureRequests)
    // Requests signed on the hosted pages are reminded from there, also while every device is offline.
    .where(and(eq(signatureRequests.status, 'sent'), eq(signatureRequests.autoRemind, true), eq(signatureRequests.publicSigning, false)))
    .all();
  for (const r of open) {
    // The device that sent the signer's link reminds them; the entity's other devices do not remind twice.
    const due = signersWhoseTurn(r, signersOf(ctx.db, r.entityId, r.id)).filter((s) => signerTokenHere(ctx, s) !== null && reminderDue(s, nowMs));
    if (due.length === 0) continue;
    const now = nowIso(ctx);
    write(ctx, (tx) => remindSigners(desktopSenderStore(ctx, tx, r), due, { now, actor: SYSTEM_ACTOR, automatic: true }));
    count += due.length;
  }
  return count;
}
