// Public signing pages on the hosted instance: a signer opens, signs or declines through the
// link they were sent while every device of the entity may be offline. The rules, state changes
// and audit entries are the signing core's (documents/signing-core/, as on a device); its store
// here (signing-store.ts) writes what a signer does to the entity's log as the hosted instance's
// own changes, with time, IP and user agent, and they reach the devices as any other device's do. The request is
// completed and sealed by an owner's device, which holds the seal key; this instance never does.
import type { z } from 'zod';
import { sha256Hex } from '../auth/passwords.js';
import {
  declineRequest,
  expireRequest,
  GENESIS_HASH,
  isOverdue,
  recordView,
  signingView,
  signRequest,
  type Acting,
  type ClientInfo,
  type DocumentView as CoreDocumentView,
  type FieldRow,
  type RequestRow,
  type SignerRow,
} from '../documents/index.js';
import type { signBody } from '../documents/request-schemas.js';
import { UnknownSigningLinkError } from '../documents/signing.js';
import { signedName } from '../documents/signed-copy.js';
import { NotFoundError } from '../http/errors.js';
import type { HostedContext } from './context.js';
import { serverTime } from './context.js';
import { mirroredRow, mirroredRowsOfRequest, mirroredSignerByTokenHash, recordHostedChanges, type RowData } from './mirror.js';
import { queueHostedMail } from './signing-mail.js';
import { hostedRequestStore, hostedSigningStore } from './signing-store.js';
import type { HostedTx } from './store.js';
import { openBlob, type OpenedBlob } from './blobs.js';
import { readRow } from './read-row.js';

export { auditChanges } from './signing-store.js';
export type { ClientInfo } from '../documents/index.js';

type DocumentView = CoreDocumentView & { sha256: string };

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

const view = (l: Loaded) => signingView(l.r, l.s, l.doc, l.all, l.fields);

/**
 * What the link shows now. A sent request past its due date expires here first, as on a device
 * (a guarded transition and an audit entry), so an overdue link can no longer be signed while the
 * devices are offline.
 */
async function loadCurrent(h: HostedContext, token: string): Promise<Loaded> {
  const l = await h.store.db.transaction((tx) => load(tx, token));
  if (!isOverdue(l.r, serverTime(h))) return l;
  return recordHostedChanges(h, l.entityId, async (tx) => {
    const now = await load(tx, token);
    const expiredAt = serverTime(h);
    const { store, changes } = hostedRequestStore(h, now, expiredAt);
    if (!expireRequest(store, expiredAt)) return { changes: [], result: now };
    return { changes: changes(), result: { ...now, r: { ...now.r, status: 'expired', expiredAt } } };
  });
}

/** What the signer sees; their first open is recorded as `viewed` (time, IP, user agent). */
export async function viewAsSigner(h: HostedContext, token: string, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  if (first.r.status !== 'sent' || first.s.viewedAt) return view(first);
  return recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    const now = serverTime(h);
    const { store, changes } = hostedSigningStore(h, l, now);
    if (!recordView(store, { now, client, host: null })) return { changes: [], result: view(l) };
    return { changes: changes(), result: view({ ...l, s: { ...l.s, viewedAt: now } }) };
  });
}

/** Signs (fills the signer's fields) or declines. The last signature leaves completion to an owner's device. */
export async function submitSigning(h: HostedContext, token: string, body: z.output<typeof signBody>, client: ClientInfo) {
  const first = await loadCurrent(h, token);
  const invited = await recordHostedChanges(h, first.entityId, async (tx) => {
    const l = await load(tx, token);
    const act: Acting = { now: serverTime(h), client, host: null };
    const { store, changes, invited: next } = hostedSigningStore(h, l, act.now);
    if (body.action === 'decline') declineRequest(store, body.reason, act);
    else signRequest(store, body.fields, act);
    // Sequential order: whoever's turn comes next is invited from here (their link is made when the mail goes out).
    for (const o of next) await queueHostedMail(tx, h, { entityId: l.entityId, kind: 'signing_invite', requestId: l.r.id, signerId: o.id });
    return { changes: changes(), result: next.length > 0 };
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
