// Public signing pages on the hosted instance: a signer opens, signs or declines through the
// link they were sent while every device of the entity may be offline. The rules are the
// desktop's (documents/signing.ts: whose turn, what a field accepts, what the signer sees); what
// a signer does is written to the entity's log as the hosted instance's own changes, with time,
// IP and user agent, and reaches the devices as any other device's changes do. The request is
// completed and sealed by an owner's device, which holds the seal key; this instance never does.
import type { z } from 'zod';
import { sha256Hex } from '../auth/passwords.js';
import { GENESIS_HASH, hashAuditEntry, type AuditActor } from '../documents/audit.js';
import type { signBody } from '../documents/request-schemas.js';
import { ACTING_ROLES, signersWhoseTurn, type RequestRow, type SignerRow } from '../documents/requests.js';
import { assertCanAct, signedValues, signingView, UnknownSigningLinkError } from '../documents/signing.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { mirroredRow, mirroredRowsOfRequest, mirroredSignerByTokenHash, recordHostedChanges, type HostedChange, type RowData } from './mirror.js';
import { queueHostedMail } from './signing-mail.js';
import type { HostedTx } from './store.js';
import { openBlob, type OpenedBlob } from './blobs.js';
import { readRow } from './read-row.js';
import { signedName } from '../documents/signed-copy.js';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

type FieldRow = Parameters<typeof signingView>[4][number];
type DocumentView = Parameters<typeof signingView>[2] & { sha256: string };

/** The columns the signing rules read, per table: a row without one of them is unreadable (409), never a 500. */
const NEEDS = {
  signature_requests: ['id', 'document_id', 'status', 'signing_order'],
  signers: ['id', 'request_id', 'name', 'email', 'role', 'order', 'status'],
  signature_fields: ['id', 'signer_id', 'type', 'page', 'x', 'y'],
  documents: ['id', 'name', 'sha256'],
  signature_audit: ['seq', 'hash'],
};

/** A mirrored row as the desktop's drizzle row, parsed (read-row.ts): a damaged row is a 409 for its page. */
export function asRow<T>(table: keyof typeof NEEDS, data: RowData): T {
  return readRow<T>(table, data, NEEDS[table]);
}

export interface Loaded {
  entityId: string;
  r: RequestRow;
  s: SignerRow;
  all: SignerRow[];
  fields: FieldRow[];
  doc: DocumentView;
  /** The chain's newest entry (seq and hash), or none yet. */
  head: { seq: number; hash: string };
}

/** Everything a signing link shows, read inside `tx`. */
async function load(tx: HostedTx, token: string): Promise<Loaded> {
  const found = await mirroredSignerByTokenHash(tx, sha256Hex(token));
  const signer = found && asRow<SignerRow>('signers', found.data);
  const loaded = found && signer && (await loadRequest(tx, found.entityId, signer.requestId, signer.id));
  if (!loaded) throw new UnknownSigningLinkError();
  return loaded;
}

/** A request with one of its signers, as the signing rules see them, read inside `tx`; null when either is gone. */
export async function loadRequest(tx: HostedTx, entityId: string, requestId: string, signerId: string): Promise<Loaded | null> {
  const requestData = await mirroredRow(tx, entityId, 'signature_requests', requestId);
  if (!requestData) return null;
  const r = asRow<RequestRow>('signature_requests', requestData);
  const docData = await mirroredRow(tx, entityId, 'documents', r.documentId);
  if (!docData) throw new NotFoundError('The document of this request is no longer available');
  const [signerRows, fieldRows, auditRows] = await Promise.all([
    mirroredRowsOfRequest(tx, entityId, 'signers', r.id),
    mirroredRowsOfRequest(tx, entityId, 'signature_fields', r.id),
    mirroredRowsOfRequest(tx, entityId, 'signature_audit', r.id),
  ]);
  const all = signerRows.map((d) => asRow<SignerRow>('signers', d)).sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const s = all.find((o) => o.id === signerId);
  if (!s) return null;
  const fields = fieldRows.map((d) => asRow<FieldRow>('signature_fields', d)).sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x || a.id.localeCompare(b.id));
  const entries = auditRows.map((d) => asRow<{ seq: number; hash: string }>('signature_audit', d));
  const last = entries.reduce<{ seq: number; hash: string } | null>((best, e) => (!best || e.seq > best.seq ? e : best), null);
  return { entityId, r, s, all, fields, doc: asRow<DocumentView>('documents', docData), head: last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: GENESIS_HASH } };
}

function signerActor(s: SignerRow): AuditActor {
  return { type: 'signer', id: s.id, name: `${s.name} <${s.email}>` };
}

/**
 * One entry of the request's audit chain after `head`, as the fact the desktop would have written,
 * and the request's move of its `audit_head` (guarded: an entry another writer appended first
 * refuses this one, so the chain stays one chain).
 */
export function auditChanges(h: HostedContext, l: Loaded, entry: { type: string; actor: AuditActor; client?: ClientInfo; data: Record<string, unknown> }, requestColumns: Record<string, unknown> = {}, expect: Record<string, unknown> = {}): HostedChange[] {
  const body = {
    id: h.ids.next(),
    entityId: l.entityId,
    requestId: l.r.id,
    seq: l.head.seq + 1,
    type: entry.type,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    ip: entry.client?.ip ?? null,
    userAgent: entry.client?.userAgent ? entry.client.userAgent.slice(0, 400) : null,
    data: entry.data,
    createdAt: serverTime(h),
    prevHash: l.head.hash,
  };
  const hash = hashAuditEntry(body);
  const fact: HostedChange = {
    table: 'signature_audit',
    rowId: body.id,
    op: 'fact',
    columns: { id: body.id, entity_id: body.entityId, request_id: body.requestId, seq: body.seq, type: body.type, actor_type: body.actorType, actor_id: body.actorId, actor_name: body.actorName, ip: body.ip, user_agent: body.userAgent, data: JSON.stringify(body.data), created_at: body.createdAt, prev_hash: body.prevHash, hash },
  };
  const move: HostedChange = {
    table: 'signature_requests',
    rowId: l.r.id,
    op: 'transition',
    columns: { ...requestColumns, audit_head: hash, updated_at: body.createdAt },
    expect: { ...expect, audit_head: l.r.auditHead ?? null },
  };
  return [fact, move];
}

/**
 * A domain event this instance causes (a signer on its pages), as the fact a device writes with
 * its own events: it reaches the webhook deliverers once, from here; devices replay it locally
 * for their own consumers only (documents/hosted-signing.ts).
 */
function eventChange(h: HostedContext, entityId: string, type: string, data: Record<string, unknown>): HostedChange {
  const id = h.ids.next();
  return { table: 'entity_events', rowId: id, op: 'fact', columns: { id, entity_id: entityId, type, data: JSON.stringify(data), created_at: serverTime(h), origin: 'hosted' } };
}

const view = (l: Loaded) => signingView(l.r, l.s, l.doc, l.all, l.fields);

/**
 * What the link shows now. A sent request past its due date expires here first, as on a device
 * (a guarded transition and an audit entry), so an overdue link can no longer be signed while the
 * devices are offline.
 */
async function loadCurrent(h: HostedContext, token: string): Promise<Loaded> {
  const l = await h.store.db.transaction((tx) => load(tx, token));
  if (l.r.status !== 'sent' || !l.r.dueDate || l.r.dueDate > serverTime(h)) return l;
  return recordHostedChanges(h, l.entityId, async (tx) => {
    const now = await load(tx, token);
    if (now.r.status !== 'sent') return { changes: [], result: now };
    const expiredAt = serverTime(h);
    const changes = auditChanges(h, now, { type: 'expired', actor: { type: 'system', id: null, name: 'Bureau' }, data: { dueDate: now.r.dueDate } }, { status: 'expired', expired_at: expiredAt }, { status: 'sent' });
    changes.push(eventChange(h, now.entityId, 'signature_request.expired', { requestId: now.r.id, title: now.r.title, dueDate: now.r.dueDate }));
    return { changes, result: { ...now, r: { ...now.r, status: 'expired', expiredAt } } };
  });
}

/** What the signer sees; their first open is recorded as `viewed` (time, IP, user agent). */
export async function viewAsSigner(h: HostedContext, token: string, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  if (first.r.status !== 'sent' || first.s.viewedAt) return view(first);
  return recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    if (l.r.status !== 'sent' || l.s.viewedAt) return { changes: [], result: view(l) };
    const now = serverTime(h);
    const changes: HostedChange[] = [
      { table: 'signers', rowId: l.s.id, op: 'upsert', columns: { viewed_at: now } },
      ...auditChanges(h, l, { type: 'viewed', actor: signerActor(l.s), client, data: { signerId: l.s.id } }),
    ];
    return { changes, result: view({ ...l, s: { ...l.s, viewedAt: now } }) };
  });
}

/** Signs (fills the signer's fields) or declines. The last signature leaves completion to an owner's device. */
export async function submitSigning(h: HostedContext, token: string, body: z.output<typeof signBody>, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  const invited = await recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    assertCanAct(l.r, l.s);
    const now = serverTime(h);
    if (body.action === 'decline') {
      const changes: HostedChange[] = [
        { table: 'signers', rowId: l.s.id, op: 'transition', columns: { status: 'declined', declined_at: now, decline_reason: body.reason }, expect: { status: 'pending' } },
        ...auditChanges(h, l, { type: 'declined', actor: signerActor(l.s), client, data: { signerId: l.s.id, reason: body.reason } }, { status: 'declined', declined_at: now }, { status: 'sent' }),
        eventChange(h, l.entityId, 'signature_request.declined', { requestId: l.r.id, title: l.r.title, signerId: l.s.id, name: l.s.name, email: l.s.email, reason: body.reason }),
      ];
      return { changes, result: false };
    }
    if (!signersWhoseTurn(l.r, l.all).some((t) => t.id === l.s.id)) throw new ConflictError('It is not your turn to sign yet');
    const values = signedValues(l.fields, l.s, body.fields, now);
    const changes: HostedChange[] = [
      ...values.map(({ f, value }): HostedChange => ({ table: 'signature_fields', rowId: f.id, op: 'upsert', columns: { value, filled_at: value === null ? null : now } })),
      {
        table: 'signers',
        rowId: l.s.id,
        op: 'transition',
        columns: { status: 'signed', signed_at: now, signed_ip: client.ip, signed_user_agent: client.userAgent?.slice(0, 400) ?? null, viewed_at: l.s.viewedAt ?? now },
        expect: { status: 'pending' },
      },
      ...auditChanges(h, l, { type: 'signed', actor: signerActor(l.s), client, data: { signerId: l.s.id, role: l.s.role, fieldCount: values.filter((v) => v.value !== null).length } }),
      eventChange(h, l.entityId, 'signer.signed', { requestId: l.r.id, signerId: l.s.id, name: l.s.name, email: l.s.email, role: l.s.role, signedAt: now }),
    ];
    // Sequential order: whoever's turn comes next is invited from here (their link is made when the mail goes out).
    const after = l.all.map((o) => (o.id === l.s.id ? { ...o, status: 'signed' as const } : o));
    const left = after.filter((o) => ACTING_ROLES.has(o.role) && o.status !== 'signed');
    const next = left.length > 0 ? signersWhoseTurn(l.r, after).filter((o) => !o.sentAt) : [];
    for (const o of next) await queueHostedMail(tx, h, { entityId: l.entityId, kind: 'signing_invite', requestId: l.r.id, signerId: o.id });
    return { changes, result: next.length > 0 };
  });
  if (invited) h.mail?.wake();
  return h.store.db.transaction(async (tx) => view(await load(tx, token)));
}

/** The PDF for the signer (a stream): the sealed one once completed, else the original. */
export async function signerDocument(h: HostedContext, token: string): Promise<{ blob: OpenedBlob; name: string }> {
  const l = await h.store.db.transaction((tx) => load(tx, token));
  const signed = l.r.status === 'completed' && l.r.signedSha256;
  const sha = signed ? l.r.signedSha256! : l.doc.sha256;
  const blob = await openBlob(h, l.entityId, sha);
  if (!blob) throw new NotFoundError(signed ? 'The signed document has not reached the hosted instance yet' : 'The document has not reached the hosted instance yet');
  return { blob, name: signed ? signedName(l.doc.name) : l.doc.name };
}

