import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import type { Queryable, Tx } from '../db/tx.js';
import { randomToken, sha256Hex } from '../auth/index.js';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors.js';
import type { Accessor } from '../folders/index.js';
import { entityLinks } from '../kernel/entity-links.js';
import { appendAudit } from './audit.js';
import { assertStatus, getRequestDetail, getVisibleRequest, type RequestMeta, type RequestRow, type SignerRow } from './requests.js';
import type { signerInput, updateSignerBody } from './request-schemas.js';
import { insertSigner } from './insert-signer.js';
import { signatureFields, signatureRequests, signers } from './tables.js';

export function findSigner(db: Queryable, entityId: string, requestId: string, signerId: string): SignerRow {
  const s = db.select().from(signers).where(and(eq(signers.entityId, entityId), eq(signers.requestId, requestId), eq(signers.id, signerId))).get();
  if (!s) throw new NotFoundError('Signer not found');
  return s;
}

function touch(ctx: Context, tx: Tx, r: RequestRow) {
  tx.update(signatureRequests).set({ updatedAt: nowIso(ctx) }).where(eq(signatureRequests.id, r.id)).run();
}

export function addSigner(ctx: Context, entityId: string, accessor: Accessor, requestId: string, input: z.output<typeof signerInput>, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  assertStatus(r, ['draft'], 'add signers');
  const id = write(ctx, (tx) => {
    const s = insertSigner(ctx, tx, entityId, requestId, input, meta);
    touch(ctx, tx, r);
    return s.id;
  });
  return getRequestDetail(ctx, entityId, requestId).signers.find((s) => s.id === id)!;
}

export function updateSigner(ctx: Context, entityId: string, accessor: Accessor, requestId: string, signerId: string, input: z.output<typeof updateSignerBody>, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  const current = findSigner(ctx.db, entityId, requestId, signerId);
  assertStatus(r, ['draft'], 'change signers');
  const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<SignerRow>;
  if (Object.keys(set).length === 0) throw new BadRequestError('Nothing to change');
  write(ctx, (tx) => {
    if (set.email && set.email !== current.email) {
      const clash = tx.select({ id: signers.id }).from(signers).where(and(eq(signers.entityId, entityId), eq(signers.requestId, requestId), eq(signers.email, set.email))).get();
      if (clash) throw new ConflictError('This e-mail address is already a signer of the request');
    }
    if (set.role && (set.role === 'cc' || set.role === 'viewer')) {
      const hasFields = tx.select({ id: signatureFields.id }).from(signatureFields).where(and(eq(signatureFields.entityId, entityId), eq(signatureFields.signerId, signerId))).get();
      if (hasFields) throw new ConflictError(`A ${set.role} cannot have fields; remove the signer's fields first`);
    }
    tx.update(signers).set(set).where(and(eq(signers.entityId, entityId), eq(signers.id, signerId))).run();
    appendAudit(ctx, tx, { entityId, requestId, type: 'signer_updated', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { signerId, changes: set } });
    touch(ctx, tx, r);
  });
  return getRequestDetail(ctx, entityId, requestId).signers.find((s) => s.id === signerId)!;
}

/** Removes a signer and their fields (draft only). */
export function removeSigner(ctx: Context, entityId: string, accessor: Accessor, requestId: string, signerId: string, meta: RequestMeta) {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  const s = findSigner(ctx.db, entityId, requestId, signerId);
  assertStatus(r, ['draft'], 'remove signers');
  write(ctx, (tx) => {
    tx.delete(signers).where(and(eq(signers.entityId, entityId), eq(signers.id, signerId))).run();
    appendAudit(ctx, tx, { entityId, requestId, type: 'signer_removed', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { signerId, name: s.name, email: s.email } });
    touch(ctx, tx, r);
  });
  return { deleted: true };
}

/**
 * The signer's token if this device holds it: a token stays sealed on the device that made it,
 * and another device may have replaced it since (its hash is what syncs).
 */
export function signerTokenHere(ctx: Context, s: SignerRow): string | null {
  if (!s.tokenSealed) return null;
  try {
    const token = ctx.secrets.open(s.tokenSealed).toString('utf8');
    return sha256Hex(token) === s.tokenHash ? token : null;
  } catch {
    return null;
  }
}

/**
 * The signer's token, made anew on this device when it holds none (the signer was added, or last
 * sent a link, from another device of the entity). A new token replaces the old link everywhere.
 */
export function signerToken(ctx: Context, tx: Tx, s: SignerRow): string {
  const here = signerTokenHere(ctx, s);
  if (here) return here;
  const token = randomToken(32);
  const replaced = { tokenHash: sha256Hex(token), tokenSealed: ctx.secrets.seal(token) };
  tx.update(signers).set(replaced).where(and(eq(signers.entityId, s.entityId), eq(signers.id, s.id))).run();
  Object.assign(s, replaced);
  return token;
}

/**
 * Where a signer's link points: the hosted instance's public pages for a request sent through
 * them (any device of the entity gives the same address), except in person, where the signer
 * signs on this device; else the address the request was sent from, or `fallback`.
 */
export function linkBaseOf(ctx: Context, r: RequestRow, fallback: string, purpose: 'shared' | 'in_person' = 'shared'): string {
  if (r.publicSigning) return purpose === 'in_person' ? fallback : (entityLinks().linkOf(ctx.db, r.entityId)?.publicUrl ?? r.linkBaseUrl ?? fallback);
  return r.linkBaseUrl ?? fallback;
}

export function signingUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sign/${token}`;
}

/**
 * The signer's link, for signing in person on this device or sharing by hand; the audit entry says
 * which (`purpose`), since a shared link leaves the sender's hands and an in-person one does not.
 */
export function issueSigningLink(ctx: Context, entityId: string, accessor: Accessor, requestId: string, signerId: string, baseUrl: string, meta: RequestMeta, purpose: 'shared' | 'in_person' = 'shared') {
  const r = getVisibleRequest(ctx, entityId, accessor, requestId);
  const s = findSigner(ctx.db, entityId, requestId, signerId);
  assertStatus(r, ['sent'], 'issue a signing link');
  if (s.role === 'cc') throw new ConflictError('A cc recipient does not sign');
  const token = write(ctx, (tx) => {
    const t = signerToken(ctx, tx, s);
    appendAudit(ctx, tx, { entityId, requestId, type: 'signing_link_issued', actor: meta.actor, ip: meta.ip, userAgent: meta.userAgent, data: { signerId, purpose } });
    return t;
  });
  return { url: signingUrl(linkBaseOf(ctx, r, baseUrl, purpose), token), token };
}
