// The signing rules, as pure functions of the rows: whose turn it is, what a signer may do, what
// each field accepts, and what a signer's link shows. The desktop and the hosted signing pages
// both decide with these (use-cases.ts), each over its own store.
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors.js';
import { pngProblem } from '../png.js';
import { AUTO_REMIND } from '../request-schemas.js';
import type { AuditActor } from './audit-chain.js';
import type { SignerPatch } from './store.js';
import type { DocumentView, FieldRow, RequestRow, SignerRow } from './types.js';

const MAX_SIGNATURE_PNG = 300 * 1024;

/** A token that matches no signer: counted per client IP against guessing (sign-routes.ts, hosted/signing-routes.ts). */
export class UnknownSigningLinkError extends NotFoundError {
  constructor() {
    super('Signing link not found');
  }
}

/** Roles that act on a request (a cc only receives the completed document). */
export const ACTING_ROLES = new Set(['signer', 'approver', 'viewer']);

/** Signers who must act now: all pending actors (parallel) or those of the lowest pending order (sequential). */
export function signersWhoseTurn(r: Pick<RequestRow, 'signingOrder'>, all: SignerRow[]): SignerRow[] {
  const pending = all.filter((s) => ACTING_ROLES.has(s.role) && s.status === 'pending');
  if (r.signingOrder === 'parallel' || pending.length === 0) return pending;
  const first = Math.min(...pending.map((s) => s.order));
  return pending.filter((s) => s.order === first);
}

/** Whose turn has come and who has not been invited yet. */
export function signersToInvite(r: Pick<RequestRow, 'signingOrder'>, all: SignerRow[]): SignerRow[] {
  return signersWhoseTurn(r, all).filter((s) => !s.sentAt);
}

/** Every acting signer has signed: the request is ready to be completed. */
export function allSigned(all: SignerRow[]): boolean {
  return !all.some((o) => ACTING_ROLES.has(o.role) && o.status !== 'signed');
}

/** A sent request whose due date has passed (it expires when next looked at). */
export function isOverdue(r: Pick<RequestRow, 'status' | 'dueDate'>, now: string): boolean {
  return r.status === 'sent' && Boolean(r.dueDate) && r.dueDate! <= now;
}

export function assertStatus(r: Pick<RequestRow, 'status'>, allowed: RequestRow['status'][], what: string): void {
  if (!allowed.includes(r.status)) throw new ConflictError(`Cannot ${what}: the request is ${r.status}`, { status: r.status });
}

/** A draft is ready to send: at least one signer, a field for every signer, a due date still ahead. */
export function assertSendable(r: Pick<RequestRow, 'dueDate'>, all: SignerRow[], fields: FieldRow[], now: string): void {
  if (!all.some((s) => s.role === 'signer')) throw new ConflictError('Add at least one signer before sending');
  const missing = all.filter((s) => s.role === 'signer' && !fields.some((f) => f.signerId === s.id));
  if (missing.length) throw new ConflictError('Every signer needs at least one field', { signerIds: missing.map((s) => s.id) });
  if (r.dueDate && r.dueDate <= now) throw new BadRequestError('dueDate has passed; set a new one before sending');
}

/** Every acting signer has signed, else who is still awaited (409): a request is completed only then. */
export function assertCompletable(r: Pick<RequestRow, 'status'>, all: SignerRow[]): void {
  assertStatus(r, ['sent'], 'complete');
  const waiting = all.filter((s) => ACTING_ROLES.has(s.role) && s.status !== 'signed');
  if (waiting.length) throw new ConflictError('Not every signer has signed yet', { waitingFor: waiting.map((s) => ({ id: s.id, name: s.name })) });
}

const DAY = 86_400_000;

/**
 * The automatic schedule: a signer who has not acted is reminded AUTO_REMIND.firstAfterDays
 * after the invitation, then every AUTO_REMIND.everyDays, at most AUTO_REMIND.max times.
 */
export function reminderDue(s: Pick<SignerRow, 'lastNotifiedAt' | 'remindersSent'>, nowMs: number): boolean {
  if (!s.lastNotifiedAt || s.remindersSent >= AUTO_REMIND.max) return false;
  const wait = (s.remindersSent === 0 ? AUTO_REMIND.firstAfterDays : AUTO_REMIND.everyDays) * DAY;
  return new Date(s.lastNotifiedAt).getTime() + wait <= nowMs;
}

/** What a signer's row keeps of a mail asking them to act: when first and last asked, and how many automatic reminders. */
export function notifiedPatch(s: Pick<SignerRow, 'sentAt' | 'remindersSent'>, now: string, automatic: boolean): SignerPatch {
  return { sentAt: s.sentAt ?? now, lastNotifiedAt: now, ...(automatic ? { remindersSent: s.remindersSent + 1 } : {}) };
}

export function signerActor(s: Pick<SignerRow, 'id' | 'name' | 'email'>): AuditActor {
  return { type: 'signer', id: s.id, name: `${s.name} <${s.email}>` };
}

/** What the audit trail keeps about an in-person signing (absent when the signer used their own link). */
export function inPersonData(host: AuditActor | null): Record<string, unknown> {
  return host ? { inPerson: true, hostedBy: { id: host.id, name: host.name } } : {};
}

export function assertCanAct(r: Pick<RequestRow, 'status'>, s: Pick<SignerRow, 'role' | 'status'>): void {
  if (r.status !== 'sent') throw new ConflictError(`This request is ${r.status}`, { status: r.status });
  if (s.role === 'cc') throw new ConflictError('A cc recipient only receives the completed document');
  if (s.status !== 'pending') throw new ConflictError(`You have already ${s.status}`);
}

export function assertTurn(r: RequestRow, all: SignerRow[], s: SignerRow): void {
  if (!signersWhoseTurn(r, all).some((t) => t.id === s.id)) throw new ConflictError('It is not your turn to sign yet');
}

export function presentField(f: FieldRow) {
  return { id: f.id, signerId: f.signerId, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, required: f.required, label: f.label, value: f.value, filledAt: f.filledAt };
}

/** What a signer's link shows: the request, this signer, their fields, whether they can act now. */
export function signingView(r: RequestRow, s: SignerRow, doc: DocumentView, all: SignerRow[], fields: FieldRow[]) {
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

function fieldName(f: FieldRow): string {
  return `${f.label ?? f.type} on page ${f.page}`;
}

function fail(f: FieldRow, problem: string): never {
  throw new BadRequestError(`Field ${fieldName(f)} ${problem}`, { fieldId: f.id });
}

/** The value a signer's field takes from what they gave (validated; defaults for name, e-mail and date). */
export function resolveValue(f: FieldRow, given: string | boolean | undefined, s: Pick<SignerRow, 'name' | 'email'>, today: string): string | null {
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

/** The signer's fields with the values they take; refuses a field that is not theirs or a value that does not fit. */
export function signedValues(fields: FieldRow[], s: SignerRow, given: { fieldId: string; value: string | boolean }[], now: string): { f: FieldRow; value: string | null }[] {
  const mine = fields.filter((f) => f.signerId === s.id);
  const byId = new Map<string, string | boolean>();
  for (const g of given) {
    if (!mine.some((f) => f.id === g.fieldId)) throw new BadRequestError('A fieldId is not one of your fields', { fieldId: g.fieldId });
    byId.set(g.fieldId, g.value);
  }
  return mine.map((f) => ({ f, value: resolveValue(f, byId.get(f.id), s, now.slice(0, 10)) }));
}
