import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Tx } from '../db/tx.js';
import { BadRequestError, ConflictError } from '../http/errors.js';
import type { Accessor } from '../folders/index.js';
import { appendAudit } from './audit.js';
import { fieldsOf } from './fields.js';
import { finalizeRequest } from './finalize.js';
import { dropQueuedMail } from '../mail/index.js';
import { queueCancelledMail } from './notify.js';
import { expireRequest as expireInCore, signersToInvite } from './signing-core/index.js';
import { desktopRequestStore, inviteSigners } from './signing-store.js';
import { assertStatus, findRequest, getRequestDetail, getVisibleRequest, signersOf, ACTING_ROLES, type RequestMeta, type RequestRow } from './requests.js';
import { signatureRequests } from './tables.js';

/** Invites every signer whose turn has come and who has not been invited yet. */
export function inviteSignersWhoseTurn(ctx: Context, tx: Tx, r: RequestRow): string[] {
  const next = signersToInvite(r, signersOf(tx, r.entityId, r.id));
  inviteSigners(ctx, tx, r, next);
  return next.map((s) => s.id);
}

/** `publicSigning`: the links point at the hosted instance's public pages (`baseUrl` is its public URL). */
export function sendSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, baseUrl: string, meta: RequestMeta, opts: { publicSigning?: boolean } = {}) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['draft'], 'send');
  const all = signersOf(ctx.db, entityId, requestId);
  const fields = fieldsOf(ctx.db, entityId, requestId);
  if (!all.some((s) => s.role === 'signer')) throw new ConflictError('Add at least one signer before sending');
  const missing = all.filter((s) => s.role === 'signer' && !fields.some((f) => f.signerId === s.id));
  if (missing.length) throw new ConflictError('Every signer needs at least one field', { signerIds: missing.map((s) => s.id) });
  if (r.dueDate && r.dueDate <= nowIso(ctx)) throw new BadRequestError('dueDate has passed; set a new one before sending');
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    const publicSigning = opts.publicSigning ?? false;
    const sent: RequestRow = { ...r, status: 'sent', sentAt: now, linkBaseUrl: baseUrl, publicSigning, updatedAt: now };
    tx.update(signatureRequests).set({ status: 'sent', sentAt: now, linkBaseUrl: baseUrl, publicSigning, updatedAt: now }).where(eq(signatureRequests.id, r.id)).run();
    const invited = inviteSignersWhoseTurn(ctx, tx, sent);
    appendAudit(ctx, tx, { entityId, requestId, type: 'sent', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { invitedSignerIds: invited, signingOrder: r.signingOrder } });
    ctx.events.record(tx, { entityId, type: 'signature_request.sent', data: { requestId, title: r.title, documentId: r.documentId, signers: all.map((s) => ({ id: s.id, email: s.email, role: s.role })) } });
  });
  return getRequestDetail(ctx, entityId, requestId);
}

export function cancelSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['draft', 'sent'], 'cancel');
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    tx.update(signatureRequests).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(signatureRequests.id, r.id)).run();
    // Whoever was already invited and has not acted is told not to bother; an invitation still
    // waiting in this device's queue is dropped instead, and its signer, never asked, is not told.
    for (const s of signersOf(tx, entityId, requestId)) {
      if (!s.sentAt || s.status !== 'pending') continue;
      const neverAsked = dropQueuedMail(tx, entityId, { kind: 'signing_invite', requestId, signerId: s.id }, 'The request was cancelled meanwhile') > 0;
      dropQueuedMail(tx, entityId, { kind: 'signing_reminder', requestId, signerId: s.id }, 'The request was cancelled meanwhile');
      if (!neverAsked) queueCancelledMail(ctx, tx, r, s);
    }
    appendAudit(ctx, tx, { entityId, requestId, type: 'cancelled', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { from: r.status } });
    ctx.events.record(tx, { entityId, type: 'signature_request.cancelled', data: { requestId, title: r.title, from: r.status } });
  });
  return getRequestDetail(ctx, entityId, requestId);
}

export async function completeSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['sent'], 'complete');
  const waiting = signersOf(ctx.db, entityId, requestId).filter((s) => ACTING_ROLES.has(s.role) && s.status !== 'signed');
  if (waiting.length) throw new ConflictError('Not every signer has signed yet', { waitingFor: waiting.map((s) => ({ id: s.id, name: s.name })) });
  await finalizeRequest(ctx, entityId, requestId, meta);
  return getRequestDetail(ctx, entityId, requestId);
}

/** Sent requests whose due date has passed become expired (run by the background loop). */
export function expireOverdueRequests(ctx: Context): number {
  const now = nowIso(ctx);
  const due = ctx.db
    .select()
    .from(signatureRequests)
    .where(and(eq(signatureRequests.status, 'sent'), isNotNull(signatureRequests.dueDate), lte(signatureRequests.dueDate, now)))
    .all();
  for (const r of due) expireRequest(ctx, r);
  return due.length;
}

/** Expires the request (the signing core's rule), if it is still sent. */
export function expireRequest(ctx: Context, r: RequestRow): void {
  const now = nowIso(ctx);
  write(ctx, (tx) => void expireInCore(desktopRequestStore(ctx, tx, findRequest(tx, r.entityId, r.id)), now));
}
