// The sender's moves of a request on the desktop: send, cancel, complete, expire. The rules, state
// changes and audit entries are the signing core's (signing-core/); this file runs them in a
// transaction over the desktop's store (signing-store.ts).
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Accessor } from '../folders/index.js';
import { finalizeRequest } from './finalize.js';
import { assertCompletable, cancelRequest, expireRequest as expireInCore, sendRequest } from './signing-core/index.js';
import { desktopRequestStore, desktopSenderStore } from './signing-store.js';
import { findRequest, getRequestDetail, getVisibleRequest, signersOf, type RequestMeta, type RequestRow } from './requests.js';
import { signatureRequests } from './tables.js';

/** `publicSigning`: the links point at the hosted instance's public pages (`baseUrl` is its public URL). */
export function sendSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, baseUrl: string, meta: RequestMeta, opts: { publicSigning?: boolean } = {}) {
  getVisibleRequest(ctx, entityId, accessor, requestId);
  const now = nowIso(ctx);
  write(ctx, (tx) => void sendRequest(desktopSenderStore(ctx, tx, findRequest(tx, entityId, requestId)), { linkBaseUrl: baseUrl, publicSigning: opts.publicSigning ?? false }, { now, ...meta }));
  return getRequestDetail(ctx, entityId, requestId);
}

export function cancelSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  getVisibleRequest(ctx, entityId, accessor, requestId);
  const now = nowIso(ctx);
  write(ctx, (tx) => cancelRequest(desktopSenderStore(ctx, tx, findRequest(tx, entityId, requestId)), { now, ...meta }));
  return getRequestDetail(ctx, entityId, requestId);
}

export async function completeSignatureRequest(ctx: Context, entityId: string, accessor: Accessor, requestId: string, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertCompletable(r, signersOf(ctx.db, entityId, requestId));
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
