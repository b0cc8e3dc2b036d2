import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { sha256Hex } from '../auth/index.js';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { actorOf, roleOf, type Auth } from '../auth/index.js';
import { roleAllows } from '../kernel/permissions.js';
import { accessorOf } from '../folders/index.js';
import { findDocument } from './documents.js';
import { signedName } from './signed-copy.js';
import { finalizeRequest } from './finalize.js';
import { getVisibleRequest, type RequestRow, type SignerRow } from './requests.js';
import type { signBody } from './request-schemas.js';
import { expireRequest } from './transitions.js';
import { declineRequest, UnknownSigningLinkError, isOverdue, recordView, signerActor, signingView, signRequest, type Acting, type AuditActor, type ClientInfo, type SigningState } from './signing-core/index.js';
import { desktopSigningStore, loadSigningState } from './signing-store.js';
import { signers } from './tables.js';

// The rules, state changes and audit entries of signing are the signing core's
// (signing-core/), shared with the hosted pages; this file is the desktop's driver of it.
export { assertCanAct, resolveValue, signedValues, signingView, UnknownSigningLinkError } from './signing-core/index.js';

/**
 * How the signing page was opened: by the signer on their own device (the default), or `inPerson`
 * on a device where `auth` (the host, a signed-in member) hands the screen to the signer.
 */
export interface SigningSession {
  inPerson?: boolean;
  auth?: Auth | null;
}

/**
 * The host of an in-person signing: a signed-in member of the request's entity who may send
 * signature requests and can see this one. Anyone else claiming to host is refused, so the audit
 * trail's "hosted by" always names a real member.
 */
function inPersonHost(ctx: Context, r: RequestRow, auth: Auth | null | undefined): AuditActor {
  if (!auth || auth.kind !== 'session') throw new UnauthorizedError('In-person signing is hosted by a signed-in member; sign in first');
  const role = roleOf(ctx, r.entityId, auth.userId);
  if (!role || !roleAllows(role, 'DOCUMENTS.SIGN')) throw new ForbiddenError('Only a member who may send signature requests can host in-person signing');
  getVisibleRequest(ctx, r.entityId, accessorOf(ctx, r.entityId, auth), r.id);
  return actorOf(auth) as AuditActor;
}

function hostOf(ctx: Context, r: RequestRow, session: SigningSession): AuditActor | null {
  return session.inPerson ? inPersonHost(ctx, r, session.auth) : null;
}

/** The signer a token names. */
function signerOf(ctx: Context, token: string): SignerRow {
  const s = ctx.db.select().from(signers).where(eq(signers.tokenHash, sha256Hex(token))).get();
  if (!s) throw new UnknownSigningLinkError();
  return s;
}

/** Resolves a signing token; an overdue request is expired on the spot. */
function resolveToken(ctx: Context, token: string): SigningState {
  const s = signerOf(ctx, token);
  const state = loadSigningState(ctx.db, s);
  if (!isOverdue(state.r, nowIso(ctx))) return state;
  expireRequest(ctx, state.r);
  return loadSigningState(ctx.db, s);
}

/**
 * Runs a use case of the signing core in one transaction over the rows it reads there (so what it
 * checked still holds when it writes). The signer is looked up again: a concurrent change of
 * their link must not be missed.
 */
function inTransaction<T>(ctx: Context, s: SignerRow, use: (store: ReturnType<typeof desktopSigningStore>) => T): T {
  return write(ctx, (tx) => {
    const current = tx.select().from(signers).where(eq(signers.id, s.id)).get();
    if (!current) throw new UnknownSigningLinkError();
    return use(desktopSigningStore(ctx, tx, loadSigningState(tx, current)));
  });
}

const present = (l: SigningState) => signingView(l.r, l.s, l.doc, l.all, l.fields);

/**
 * What the signer sees. The first open by the signer's own session is recorded as `viewed`; a host
 * opening the screen for in-person signing is not the signer viewing it (the signing itself then
 * records that the signer saw the document, in person).
 */
export function viewAsSigner(ctx: Context, token: string, client: ClientInfo, session: SigningSession = {}) {
  const first = resolveToken(ctx, token);
  const host = hostOf(ctx, first.r, session);
  if (first.r.status !== 'sent' || first.s.viewedAt || host) return present(first);
  const now = nowIso(ctx);
  return inTransaction(ctx, first.s, (store) => {
    const viewed = recordView(store, { now, client, host });
    return present(viewed ? { ...store.state, s: { ...store.state.s, viewedAt: now } } : store.state);
  });
}

/** The PDF for the signer: the sealed one once completed, else the original. */
export function signerDocument(ctx: Context, token: string): { data: Buffer; name: string } {
  const { r } = resolveToken(ctx, token);
  const doc = findDocument(ctx.db, r.entityId, r.documentId);
  if (r.status === 'completed' && r.signedSha256) return { data: ctx.blobs.get(r.signedSha256), name: signedName(doc.name) };
  return { data: ctx.blobs.get(doc.sha256), name: doc.name };
}

/** Signs (fills the signer's fields) or declines; the last signature completes and seals the request here. */
export async function submitSigning(ctx: Context, token: string, body: z.output<typeof signBody>, client: ClientInfo, session: SigningSession = {}) {
  const { r, s } = resolveToken(ctx, token);
  const act: Acting = { now: nowIso(ctx), client, host: hostOf(ctx, r, session) };
  if (body.action === 'decline') {
    inTransaction(ctx, s, (store) => declineRequest(store, body.reason, act));
    // What the signer sees now: read again (the row `s` was read before the decline).
    return viewAsSigner(ctx, token, client, session);
  }
  const { finished } = inTransaction(ctx, s, (store) => signRequest(store, body.fields, act));
  if (finished) {
    try {
      await finalizeRequest(ctx, r.entityId, r.id, { actor: signerActor(s), ip: client.ip, userAgent: client.userAgent });
    } catch (err) {
      // Everyone has signed; PATCH { action: 'complete' } retries the sealing.
      ctx.log.error({ err, requestId: r.id }, 'sealing the completed request failed');
    }
  }
  return viewAsSigner(ctx, token, client, session);
}
