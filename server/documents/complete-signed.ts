// A request signed on the hosted instance's public pages is completed by a device: the seal key
// never leaves the owners' devices. When the last signature arrives by sync, an owner's or
// admin's device seals the PDF, files it and marks the request completed; the completion (and the
// sealed PDF) go up with its next push, and the hosted instance mails everyone their copy.
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { ConflictError } from '../http/errors.js';
import { entityLinks } from '../kernel/entity-links.js';
import { SYSTEM_ACTOR } from './audit.js';
import { finalizeRequest } from './finalize.js';
import { ACTING_ROLES, signersOf } from './requests.js';
import { signatureRequests } from './tables.js';

/** At most this many requests sealed per pass (sealing is heavy work; the next pass takes the rest). */
const MAX_PER_PASS = 20;

export async function completeSignedRequests(ctx: Context): Promise<number> {
  const sent = ctx.db
    .select({ id: signatureRequests.id, entityId: signatureRequests.entityId })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.status, 'sent'), eq(signatureRequests.publicSigning, true)))
    .all();
  let completed = 0;
  for (const r of sent) {
    if (completed >= MAX_PER_PASS) break;
    if (!mayComplete(ctx, r.entityId)) continue;
    const waiting = signersOf(ctx.db, r.entityId, r.id).filter((s) => ACTING_ROLES.has(s.role) && s.status !== 'signed');
    if (waiting.length > 0) continue;
    try {
      await finalizeRequest(ctx, r.entityId, r.id, { actor: SYSTEM_ACTOR, ip: null, userAgent: null });
      completed++;
    } catch (err) {
      // Completed meanwhile (here, or by another device whose completion arrived first).
      if (!(err instanceof ConflictError)) ctx.log.error({ err, requestId: r.id }, 'completing a request signed on the hosted pages failed');
    }
  }
  return completed;
}

/** Owners' and admins' devices complete (an entity no longer linked: this device is the only one). */
export function mayComplete(ctx: Context, entityId: string): boolean {
  const role = entityLinks().linkOf(ctx.db, entityId)?.role ?? null;
  return role === null || role === 'owner' || role === 'admin';
}
