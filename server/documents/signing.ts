import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { write } from '../db/write.js';
import { sha256Hex } from '../auth/passwords.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../http/errors.js';
import { actorOf, type Auth } from '../auth/authenticate.js';
import { roleOf } from '../auth/entities.js';
import { roleAllows } from '../auth/permissions.js';
import { accessorOf } from '../folders/access.js';
import { appendAudit, type AuditActor } from './audit.js';
import { findDocument } from './documents.js';
import { fieldsOf, presentField } from './fields.js';
import { pngProblem } from './png.js';
import { signedName } from './signed-copy.js';
import { finalizeRequest } from './finalize.js';
import { queueOwnerMail } from './notify.js';
import { findRequest, getVisibleRequest, signersOf, signersWhoseTurn, ACTING_ROLES, type RequestRow, type SignerRow } from './requests.js';
import type { signBody } from './request-schemas.js';
import { expireRequest, inviteSignersWhoseTurn } from './transitions.js';
import { signatureFields, signatureRequests, signers } from './tables.js';

type FieldRow = ReturnType<typeof fieldsOf>[number];
type DocumentRow = ReturnType<typeof findDocument>;

const MAX_SIGNATURE_PNG = 300 * 1024;

interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

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

/** What the audit trail keeps about an in-person signing (absent when the signer used their own link). */
function inPersonData(host: AuditActor | null): Record<string, unknown> {
  return host ? { inPerson: true, hostedBy: { id: host.id, name: host.name } } : {};
}

/** A token that matches no signer: counted per client IP against guessing (see sign-routes.ts). */
export class UnknownSigningLinkError extends NotFoundError {
  constructor() {
    super('Signing link not found');
  }
}

function signerActor(s: SignerRow): AuditActor {
  return { type: 'signer', id: s.id, name: `${s.name} <${s.email}>` };
}

/** Resolves a signing token; an overdue request is expired on the spot. */
function resolveToken(ctx: Context, token: string): { r: RequestRow; s: SignerRow } {
  const s = ctx.db.select().from(signers).where(eq(signers.tokenHash, sha256Hex(token))).get();
  if (!s) throw new UnknownSigningLinkError();
  let r = findRequest(ctx.db, s.entityId, s.requestId);
  if (r.status === 'sent' && r.dueDate && r.dueDate <= nowIso(ctx)) {
    expireRequest(ctx, r);
    r = findRequest(ctx.db, s.entityId, s.requestId);
  }
  return { r, s };
}

function present(ctx: Context, r: RequestRow, s: SignerRow) {
  const doc = findDocument(ctx.db, r.entityId, r.documentId);
  return signingView(r, s, doc, signersOf(ctx.db, r.entityId, r.id), fieldsOf(ctx.db, r.entityId, r.id));
}

/** What a signer's link shows: the request, this signer, their fields, whether they can act now. Pure (the hosted pages use it too). */
export function signingView(r: RequestRow, s: SignerRow, doc: Pick<DocumentRow, 'name' | 'pageCount' | 'pages'>, all: SignerRow[], fields: FieldRow[]) {
  const turn = signersWhoseTurn(r, all);
  const myTurn = turn.some((t) => t.id === s.id);
  const waitingFor = s.status === 'pending' && !myTurn && ACTING_ROLES.has(s.role) ? all.filter((o) => o.status === 'pending' && ACTING_ROLES.has(o.role) && o.order < s.order).map((o) => o.name) : [];
  return {
    request: {
      id: r.id,
      title: r.title,
      message: r.message,
      status: r.status,
      documentName: doc.name,
      pageCount: doc.pageCount,
      pages: doc.pages,
      dueDate: r.dueDate,
      signingOrder: r.signingOrder,
      senderName: r.createdByName,
      completedAt: r.completedAt,
    },
    signer: { id: s.id, name: s.name, email: s.email, role: s.role, status: s.status, signedAt: s.signedAt },
    fields: fields.filter((f) => f.signerId === s.id).map(presentField),
    canSign: r.status === 'sent' && s.status === 'pending' && myTurn,
    waitingFor,
  };
}

/**
 * What the signer sees. The first open by the signer's own session is recorded as `viewed`; a host
 * opening the screen for in-person signing is not the signer viewing it (the signing itself then
 * records that the signer saw the document, in person).
 */
export function viewAsSigner(ctx: Context, token: string, client: ClientInfo, session: SigningSession = {}) {
  const { r, s } = resolveToken(ctx, token);
  const host = hostOf(ctx, r, session);
  if (r.status === 'sent' && !s.viewedAt && !host) {
    const now = nowIso(ctx);
    write(ctx, (tx) => {
      tx.update(signers).set({ viewedAt: now }).where(eq(signers.id, s.id)).run();
      appendAudit(ctx, tx, { entityId: r.entityId, requestId: r.id, type: 'viewed', actor: signerActor(s), ip: client.ip, userAgent: client.userAgent, data: { signerId: s.id } });
    });
    s.viewedAt = now;
  }
  return present(ctx, r, s);
}

/** The PDF for the signer: the sealed one once completed, else the original. */
export function signerDocument(ctx: Context, token: string): { data: Buffer; name: string } {
  const { r } = resolveToken(ctx, token);
  const doc = findDocument(ctx.db, r.entityId, r.documentId);
  if (r.status === 'completed' && r.signedSha256) return { data: ctx.blobs.get(r.signedSha256), name: signedName(doc.name) };
  return { data: ctx.blobs.get(doc.sha256), name: doc.name };
}

export function assertCanAct(r: RequestRow, s: SignerRow): void {
  if (r.status !== 'sent') throw new ConflictError(`This request is ${r.status}`, { status: r.status });
  if (s.role === 'cc') throw new ConflictError('A cc recipient only receives the completed document');
  if (s.status !== 'pending') throw new ConflictError(`You have already ${s.status}`);
}

function fieldName(f: FieldRow): string {
  return `${f.label ?? f.type} on page ${f.page}`;
}

/** The value a signer's field takes from what they gave (validated; defaults for name, e-mail and date). Pure. */
export function resolveValue(f: FieldRow, given: string | boolean | undefined, s: SignerRow, today: string): string | null {
  const v = typeof given === 'boolean' ? String(given) : given?.trim();
  switch (f.type) {
    case 'checkbox': {
      if (v === undefined || v === '') return f.required ? fail(f, 'must be checked') : 'false';
      if (v !== 'true' && v !== 'false') return fail(f, 'must be true or false');
      if (f.required && v !== 'true') return fail(f, 'must be checked');
      return v;
    }
    case 'signature':
    case 'initials': {
      if (!v) return f.required ? fail(f, 'is required') : null;
      if (v.startsWith('data:')) {
        const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(v);
        if (!m) return fail(f, 'must be a PNG data URL or typed text');
        const png = Buffer.from(m[1], 'base64');
        if (png.length > MAX_SIGNATURE_PNG) return fail(f, 'image is too large');
        const problem = pngProblem(png);
        if (problem) return fail(f, problem);
        return v;
      }
      if (v.length > 100) return fail(f, 'typed text must be at most 100 characters');
      return v;
    }
    case 'name':
      return v ? (v.length > 200 ? fail(f, 'is too long') : v) : s.name;
    case 'email':
      return v ? (v.length > 254 ? fail(f, 'is too long') : v) : s.email;
    case 'date':
      return v ? (v.length > 40 ? fail(f, 'is too long') : v) : today;
    case 'text':
      if (!v) return f.required ? fail(f, 'is required') : null;
      return v.length > 1000 ? fail(f, 'must be at most 1000 characters') : v;
  }
}

function fail(f: FieldRow, problem: string): never {
  throw new BadRequestError(`Field ${fieldName(f)} ${problem}`, { fieldId: f.id });
}

export async function submitSigning(ctx: Context, token: string, body: z.output<typeof signBody>, client: ClientInfo, session: SigningSession = {}) {
  const { r, s } = resolveToken(ctx, token);
  const host = hostOf(ctx, r, session);
  assertCanAct(r, s);
  if (body.action === 'decline') return declineAsSigner(ctx, r, s, body.reason, client, host);
  if (!signersWhoseTurn(r, signersOf(ctx.db, r.entityId, r.id)).some((t) => t.id === s.id)) throw new ConflictError('It is not your turn to sign yet');
  const now = nowIso(ctx);
  const values = signedValues(fieldsOf(ctx.db, r.entityId, r.id), s, body.fields, now);
  const finished = write(ctx, (tx) => {
    const current = tx.select().from(signers).where(eq(signers.id, s.id)).get()!;
    if (current.status !== 'pending') throw new ConflictError(`You have already ${current.status}`);
    for (const { f, value } of values) tx.update(signatureFields).set({ value, filledAt: value === null ? null : now }).where(and(eq(signatureFields.entityId, r.entityId), eq(signatureFields.id, f.id))).run();
    tx.update(signers).set({ status: 'signed', signedAt: now, signedIp: client.ip, signedUserAgent: client.userAgent?.slice(0, 400) ?? null, viewedAt: s.viewedAt ?? now }).where(eq(signers.id, s.id)).run();
    tx.update(signatureRequests).set({ updatedAt: now }).where(eq(signatureRequests.id, r.id)).run();
    appendAudit(ctx, tx, { entityId: r.entityId, requestId: r.id, type: 'signed', actor: signerActor(s), ip: client.ip, userAgent: client.userAgent, data: { signerId: s.id, role: s.role, fieldCount: values.filter((v) => v.value !== null).length, ...inPersonData(host) } });
    ctx.events.record(tx, { entityId: r.entityId, type: 'signer.signed', data: { requestId: r.id, signerId: s.id, name: s.name, email: s.email, role: s.role, signedAt: now } });
    const left = signersOf(tx, r.entityId, r.id).filter((o) => ACTING_ROLES.has(o.role) && o.status !== 'signed');
    if (left.length === 0) return true;
    inviteSignersWhoseTurn(ctx, tx, r);
    return false;
  });
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

/** The signer's fields with the values they take; refuses a field that is not theirs or a value that does not fit. Pure. */
export function signedValues(fields: FieldRow[], s: SignerRow, given: { fieldId: string; value: string | boolean }[], now: string): { f: FieldRow; value: string | null }[] {
  const mine = fields.filter((f) => f.signerId === s.id);
  const byId = new Map<string, string | boolean>();
  for (const g of given) {
    if (!mine.some((f) => f.id === g.fieldId)) throw new BadRequestError('A fieldId is not one of your fields', { fieldId: g.fieldId });
    byId.set(g.fieldId, g.value);
  }
  return mine.map((f) => ({ f, value: resolveValue(f, byId.get(f.id), s, now.slice(0, 10)) }));
}

function declineAsSigner(ctx: Context, r: RequestRow, s: SignerRow, reason: string, client: ClientInfo, host: AuditActor | null) {
  const now = nowIso(ctx);
  write(ctx, (tx) => {
    tx.update(signers).set({ status: 'declined', declinedAt: now, declineReason: reason }).where(eq(signers.id, s.id)).run();
    tx.update(signatureRequests).set({ status: 'declined', declinedAt: now, updatedAt: now }).where(eq(signatureRequests.id, r.id)).run();
    appendAudit(ctx, tx, { entityId: r.entityId, requestId: r.id, type: 'declined', actor: signerActor(s), ip: client.ip, userAgent: client.userAgent, data: { signerId: s.id, reason, ...inPersonData(host) } });
    ctx.events.record(tx, { entityId: r.entityId, type: 'signature_request.declined', data: { requestId: r.id, title: r.title, signerId: s.id, name: s.name, email: s.email, reason } });
    queueOwnerMail(ctx, tx, r, 'declined', `${s.name} <${s.email}> gave this reason: ${reason}`);
  });
  return present(ctx, findRequest(ctx.db, r.entityId, r.id), { ...s, status: 'declined', declinedAt: now, declineReason: reason });
}
